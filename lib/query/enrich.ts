/** The features that enrich extracted data: `ping` (docs/CONTRACT.md §4), `iframe` and `insights`. */
import { MEDIA_FIELDS, type MediaField } from '../data/fields.ts';
import { invalidParam } from '../errors.ts';
import type { IframeOptions, InsightsOptions, PingOptions } from './options.ts';
import { child, feature, flag, flagOf, numberIn } from './read.ts';
import type { QueryNode } from './tree.ts';

const PIXELS = 10_000;

export function readPing(root: QueryNode): PingOptions {
  const node = feature(child(root, 'ping'), true);
  // The object form changes only the sub-keys given; the rest stay checked.
  const on = (field: MediaField): boolean => node !== false && flagOf(node, field, true, 'ping');
  return Object.fromEntries(MEDIA_FIELDS.map((field) => [field, on(field)])) as Record<MediaField, boolean>;
}

export function readIframe(root: QueryNode): false | IframeOptions {
  const node = feature(child(root, 'iframe'), false);
  if (node === false) return false;
  const size = (key: string): number | undefined => {
    const found = child(node, key, 'iframe');
    return found ? numberIn(found, 1, PIXELS, true) : undefined;
  };
  return { maxWidth: size('maxWidth'), maxHeight: size('maxHeight') };
}

const INSIGHTS = ['technologies', 'lighthouse'];

/**
 * `insights` alone means what Glance can answer, the technologies. A Lighthouse report is refused by name: it
 * would need the `lighthouse` package (tens of megabytes, a second browser driver) wired through the address
 * guard, which Glance does not ship (README, "insights").
 */
export function readInsights(root: QueryNode): false | InsightsOptions {
  const node = feature(child(root, 'insights'), false);
  if (node === false) return false;
  for (const key of node.children.keys()) {
    if (!INSIGHTS.includes(key)) {
      throw invalidParam(`insights.${key}`, `not an option of \`insights\`; its options are ${INSIGHTS.join(', ')}`);
    }
  }
  const lighthouse = child(node, 'lighthouse', 'insights');
  // `insights.lighthouse=false` is what every request gets; anything else (true, or audit settings) is refused.
  if (lighthouse && (lighthouse.node.children.size > 0 || flag(lighthouse))) {
    throw invalidParam(
      'insights.lighthouse',
      'Lighthouse reports are not available on Glance; ask for `insights.technologies` alone or leave `insights.lighthouse` out',
    );
  }
  const technologies = flagOf(node, 'technologies', true, 'insights');
  return technologies ? { technologies } : false;
}
