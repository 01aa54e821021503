import { decodeHTML } from 'entities';

const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i;
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;

/**
 * Entities decoded (the parser decoded the markup once; meta content is often encoded twice upstream, so a
 * leftover `&amp;` or `&#39;` is decoded again), invisible characters dropped, whitespace collapsed and trimmed.
 */
export function normaliseText(value: string): string {
  let text = value;
  for (let i = 0; i < 2 && ENTITY.test(text); i++) text = decodeHTML(text);
  return text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

/** Comparison key: case, punctuation and spacing do not make two names different. */
export function textKey(value: string): string {
  return normaliseText(value).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
