/** The features that enrich extracted data: `ping` (docs/CONTRACT.md §4) and `iframe`; `insights` is insights.ts. */
import { MEDIA_FIELDS, type MediaField } from '../data/fields.ts';
import type { IframeOptions, PingOptions } from './options.ts';
import { child, feature, flagOf, numberIn, onlyKeys } from './read.ts';
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
