/** The features that enrich extracted data: `ping` (docs/CONTRACT.md §4) and `iframe`. */
import type { IframeOptions, PingOptions } from './options.ts';
import { child, feature, flagOf, numberIn } from './read.ts';
import type { QueryNode } from './tree.ts';

const PIXELS = 10_000;

export function readPing(root: QueryNode): PingOptions {
  const node = feature(child(root, 'ping'), true);
  if (node === false) return { image: false, logo: false, audio: false, video: false };
  // The object form changes only the sub-keys given; the rest stay checked.
  return {
    image: flagOf(node, 'image', true, 'ping'),
    logo: flagOf(node, 'logo', true, 'ping'),
    audio: flagOf(node, 'audio', true, 'ping'),
    video: flagOf(node, 'video', true, 'ping'),
  };
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
