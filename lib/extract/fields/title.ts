import { texts } from '../facts.ts';
import { cleanHeadline } from '../headline.ts';
import { asList, type FieldSpec, type Rule } from '../rules.ts';
import { ldText, meta, text } from '../sources.ts';
import { normaliseText } from '../text.ts';

/** Where a page states its headline alone, in the order they are trusted. */
const TWINS: readonly Rule[] = [
  ldText('headline'),
  text('entryTitle'),
  text('postTitle'),
  text('h1Title'),
  ({ facts }) => texts(facts, 'h1'),
  meta('og:title'),
  meta('twitter:title'),
];

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
  settle(value, ctx) {
    return cleanHeadline(value, TWINS.flatMap((rule) => asList(rule(ctx)).map(normaliseText)));
  },
};
