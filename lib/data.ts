/** Builds the response's `data` from a loaded page: the requested metadata fields, each present (null if absent). */
import { extractMetadata, type MetaField } from './extract/index.ts';
import { mediaFromUrl, typeFromContentType, type MediaObject } from './media.ts';
import type { LoadedPage } from './page.ts';

const MEDIA_FIELDS = new Set<MetaField>(['image', 'logo', 'audio', 'video']);

export function buildData(page: LoadedPage, fields: readonly MetaField[]): Record<string, unknown> {
  const data: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field, null]));
  const { content } = page;
  if (content.kind === 'html') {
    const { values } = extractMetadata({ html: content.html, url: page.url }, fields);
    for (const field of fields) {
      const value = values[field];
      data[field] = value !== null && MEDIA_FIELDS.has(field) ? mediaFromUrl(value) : value;
    }
    return data;
  }
  // A direct link is its own media: `image` for an image URL, and so on (CONTRACT §3).
  if (fields.includes('url')) data.url = page.url;
  if (content.kind === 'media' && fields.includes(content.media)) {
    const media: MediaObject = { url: page.url, type: typeFromContentType(content.contentType) };
    data[content.media] = media;
  }
  return data;
}
