import { texts } from '../facts.ts';
import type { FieldSpec } from '../rules.ts';
import { ldText, meta, text } from '../sources.ts';
import { normaliseText } from '../text.ts';

export const title: FieldSpec = {
  rules: [
    meta('og:title'),
    meta('twitter:title'),
    ldText('headline'),
    ({ facts }) => facts.title,
    meta('title', 'dc.title', 'dcterms.title'),
    text('postTitle'),
    text('entryTitle'),
    text('h1TitleLink'),
    text('h1Title'),
    ({ facts }) => texts(facts, 'h1'),
  ],
  accept(raw) {
    const value = normaliseText(raw);
    return value === '' ? undefined : value;
  },
};
