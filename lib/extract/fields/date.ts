import { parseDate } from '../date.ts';
import { microdataValues } from '../facts.ts';
import type { FieldSpec, Rule } from '../rules.ts';
import { ldText, meta, text } from '../sources.ts';

/** `<meta>` values whose key contains `part` (`article:published_time`, `og:published_time`, `published_time`). */
const metaContaining =
  (part: string): Rule =>
  ({ facts }) => {
    const out: string[] = [];
    for (const [key, values] of facts.meta) if (key.includes(part)) out.push(...values);
    return out;
  };

const published: Rule[] = [
  ldText('datePublished'),
  ldText('dateCreated'),
  ldText('uploadDate'),
  metaContaining('published_time'),
  meta('article:published', 'pubdate', 'publishdate', 'publish-date', 'date', 'dc.date', 'dc.date.issued',
    'dcterms.date', 'dcterms.issued', 'dcterms.created', 'sailthru.date', 'parsely-pub-date', 'og:pubdate'),
  ({ facts }) => microdataValues(facts, 'datepublished'),
];

const modified: Rule[] = [
  ldText('dateModified'),
  metaContaining('modified_time'),
  meta('og:updated_time', 'dcterms.modified', 'last-modified'),
  ({ facts }) => microdataValues(facts, 'datemodified'),
];

const inText: Rule[] = [
  ({ facts }) => microdataValues(facts, (p) => p.includes('date')),
  ({ facts }) => facts.times.filter((t) => t.itemprop.includes('date')).map((t) => t.datetime),
  ({ facts }) => facts.times.map((t) => t.datetime),
  text('publishClass'),
  text('byline'),
  text('dateId'),
  text('dateClass'),
  text('timeClass'),
];

/**
 * The publication date: people reading "the date" of an article mean when it was published (annotators chose it
 * over a different modified date 101 times out of 128). A modification date is the last resort.
 */
export const date: FieldSpec = {
  rules: [...published, ...inText, ...modified],
  accept: (raw) => parseDate(raw, { keepOffset: true }),
};
