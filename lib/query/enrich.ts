/** The features that enrich extracted data: `ping` (docs/CONTRACT.md §4), `iframe` and `insights`. */
import { MEDIA_FIELDS, type MediaField } from '../data/fields.ts';
import { invalidParam } from '../errors.ts';
import {
  LIGHTHOUSE_CATEGORIES,
  LIGHTHOUSE_OUTPUTS,
  LIGHTHOUSE_PRESETS,
  type IframeOptions,
  type InsightsOptions,
  type LighthouseCategory,
  type LighthouseOptions,
  type PingOptions,
} from './options.ts';
import { child, feature, flagOf, list, numberIn, oneOf, onlyKeys, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

const PIXELS = 10_000;

export function readPing(root: QueryNode): PingOptions {
  const found = child(root, 'ping');
  const node = feature(found, true);
  if (found && node !== false) onlyKeys(found, MEDIA_FIELDS);
  // The object form changes only the sub-keys given; the rest stay checked.
  const on = (field: MediaField): boolean => node !== false && flagOf(node, field, true, 'ping');
  return Object.fromEntries(MEDIA_FIELDS.map((field) => [field, on(field)])) as Record<MediaField, boolean>;
}

export function readIframe(root: QueryNode): false | IframeOptions {
  const found = child(root, 'iframe');
  const node = feature(found, false);
  if (node === false) return false;
  if (found) onlyKeys(found, ['maxWidth', 'maxHeight']);
  const size = (key: string): number | undefined => {
    const found = child(node, key, 'iframe');
    return found ? numberIn(found, 1, PIXELS, true) : undefined;
  };
  return { maxWidth: size('maxWidth'), maxHeight: size('maxHeight') };
}

const INSIGHTS = ['technologies', 'lighthouse'];
const LIGHTHOUSE = ['output', 'preset', 'onlyCategories'];

/**
 * `insights=true` keeps meaning the technologies alone (Microlink's also runs Lighthouse): a report costs seconds of
 * a core and most of the request's budget, so it is run only when asked for by name (README, "insights").
 */
export function readInsights(root: QueryNode): false | InsightsOptions {
  const node = feature(child(root, 'insights'), false);
  if (node === false) return false;
  refuseUnknown(node, 'insights', INSIGHTS);
  const technologies = flagOf(node, 'technologies', true, 'insights');
  const lighthouse = readLighthouse(child(node, 'lighthouse', 'insights'));
  return technologies || lighthouse ? { technologies, lighthouse } : false;
}

function readLighthouse(found: Found | undefined): false | LighthouseOptions {
  const node = feature(found, false);
  if (node === false) return false;
  const name = 'insights.lighthouse';
  refuseUnknown(node, name, LIGHTHOUSE);
  const output = child(node, 'output', name);
  const preset = child(node, 'preset', name);
  const categories = child(node, 'onlyCategories', name);
  return {
    output: output ? oneOf(output, LIGHTHOUSE_OUTPUTS) : 'json',
    preset: preset ? oneOf(preset, LIGHTHOUSE_PRESETS) : undefined,
    onlyCategories: categories ? [...new Set(list(categories, true).map((item) => category(categories.name, item)))] : undefined,
  };
}

function category(name: string, given: string): LighthouseCategory {
  const found = LIGHTHOUSE_CATEGORIES.find((known) => known === given.toLowerCase());
  if (!found) throw invalidParam(name, `a list of ${LIGHTHOUSE_CATEGORIES.join(', ')} (not \`${given}\`)`);
  return found;
}

function refuseUnknown(node: QueryNode, name: string, known: readonly string[]): void {
  for (const key of node.children.keys()) {
    if (!known.includes(key) && !known.includes(camelOf(key))) {
      throw invalidParam(`${name}.${key}`, `not an option of \`${name}\`; its options are ${known.join(', ')}`);
    }
  }
}

const camelOf = (key: string): string => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
