/**
 * Media objects (docs/CONTRACT.md §3): `{ url, type, ... }` where `type` is the file extension. Until a URL is pinged,
 * its type comes from the extension in its path; a fetched response's content type is more reliable.
 */
import { prettyBytes } from './pretty.ts';
import { typeFromContentType, typeFromUrl } from './types.ts';

export interface MediaObject {
  url: string;
  type: string | null;
  [key: string]: unknown;
}

export const mediaFromUrl = (url: string): MediaObject => ({ url, type: typeFromUrl(url) });

/** Our own stored assets are known, so their object is complete without a ping (docs/CONTRACT.md §4.6). */
export const mediaFromStored = (stored: { url: string; size: number; contentType: string }): MediaObject => ({
  url: stored.url,
  type: typeFromContentType(stored.contentType),
  size: stored.size,
  size_pretty: prettyBytes(stored.size),
});
