/**
 * oEmbed discovery (https://oembed.com/#section4): the page names its own endpoint in
 * `<link rel="alternate" type="application/json+oembed" href="…">`, or the XML form `text/xml+oembed`. The links
 * come from the extractor's one pass (page facts); JSON is preferred, as the spec's consumers do.
 */
import type { PageFacts } from '../extract/facts.ts';
import { baseUrl, resolveUrl } from '../extract/url.ts';

export type OembedFormat = 'json' | 'xml';

export interface Discovered {
  readonly url: string;
  readonly format: OembedFormat;
}

const TYPES: Readonly<Record<string, OembedFormat>> = {
  'application/json+oembed': 'json',
  'text/xml+oembed': 'xml',
  // Seen in the wild (WordPress before 4.4, some Drupal modules).
  'application/xml+oembed': 'xml',
};

export function discoveredEndpoints(facts: PageFacts): Discovered[] {
  const base = baseUrl(facts.url, facts.baseHref);
  const found: Discovered[] = [];
  for (const link of facts.links) {
    const format = TYPES[link.type.trim().toLowerCase()];
    if (!format || !link.rel.split(' ').includes('alternate')) continue;
    const url = resolveUrl(link.href, base);
    if (url) found.push({ url, format });
  }
  return found.sort((a, b) => Number(a.format === 'xml') - Number(b.format === 'xml'));
}
