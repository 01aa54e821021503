/**
 * Builds the response's `data` from a loaded page: the requested metadata fields, each present (null if absent),
 * and for each media field the URLs a ping may try, best first.
 */
import { isMediaField as isMedia, MEDIA_FIELDS, type Data, type MediaField as PingField, type MetaField } from '../data/fields.ts';
import { extractFromFacts, type ExtractOptions } from '../extract/index.ts';
import type { PageFacts } from '../extract/facts.ts';
import type { LoadedPage } from '../fetch/document.ts';

export interface PageData {
  /** Text fields set; media fields null until pinged (or shaped raw). */
  data: Data;
  /** Per requested media field: every candidate when pinged, else only the extracted value (docs/CONTRACT.md §4.3). */
  media: Partial<Record<PingField, string[]>>;
}

/** `facts` are the page's, collected once (undefined when the page is not HTML). */
export function buildData(
  page: LoadedPage,
  facts: PageFacts | undefined,
  fields: readonly MetaField[],
  ping: Record<PingField, boolean>,
  options: ExtractOptions = {},
): PageData {
  const data: Data = Object.fromEntries(fields.map((field) => [field, null]));
  const media: Partial<Record<PingField, string[]>> = {};
  const wanted = MEDIA_FIELDS.filter((field) => fields.includes(field));
  const { content } = page;
  if (content.kind === 'html' && facts) {
    const { values, candidates } = extractFromFacts(facts, fields, options);
    for (const field of fields) if (!isMedia(field)) data[field] = values[field];
    for (const field of wanted) {
      const value = values[field];
      // Unpinged, a guess such as /favicon.ico is not reported: only what the page declared.
      media[field] = ping[field] ? candidates[field] : value ? [value] : [];
    }
    return { data, media };
  }
  // A direct link is its own media: `image` for an image URL, and so on (docs/CONTRACT.md §3).
  if (fields.includes('url')) data.url = page.url;
  for (const field of wanted) media[field] = content.kind === 'media' && content.media === field ? [page.url] : [];
  return { data, media };
}
