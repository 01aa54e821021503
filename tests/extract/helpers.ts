import type { MetaField } from '../../lib/data/fields.ts';
import { extractMetadata } from '../../lib/extract/index.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

export const PAGE_URL = 'https://news.example.com/2024/03/story.html';

/** The values extracted from an HTML snippet served at PAGE_URL (or `url`). */
export function values(html: string, url = PAGE_URL): Record<MetaField, string | null> {
  return extractMetadata({ html, url }).values;
}

export function head(...tags: string[]): string {
  return `<!doctype html><html><head>${tags.join('\n')}</head><body></body></html>`;
}

export function ldJson(data: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
}
