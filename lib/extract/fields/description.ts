import type { FieldSpec } from '../rules.ts';
import { texts } from '../facts.ts';
import { ldText, meta } from '../sources.ts';
import { normaliseText } from '../text.ts';

export const description: FieldSpec = {
  rules: [
    meta('og:description'),
    meta('twitter:description'),
    meta('description'),
    meta('dc.description', 'dcterms.description', 'dcterms.abstract'),
    ldText('description'),
    // Readability's habit: with nothing declared, the first paragraph that reads like prose.
    ({ facts }) => texts(facts, 'paragraph').filter((p) => p.length >= 40 && p.split(' ').length >= 6),
  ],
  accept(raw) {
    const value = normaliseText(raw);
    return value === '' ? undefined : value;
  },
};
