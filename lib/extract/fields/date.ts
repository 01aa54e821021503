import { parseDate } from '../date.ts';
import { microdataValues } from '../facts.ts';
import { asList, type FieldSpec, type Rule } from '../rules.ts';
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

/** A year alone (`"datePublished": 2010`): it names no day, so any dated candidate is a better answer. */
const YEAR_ONLY = /^\s*\d{4}\s*$/;

const withoutBareYears =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((raw) => !YEAR_ONLY.test(raw));

/** The bare years the rules found, for a page that gives nothing more precise. */
const bareYears =
  (rules: readonly Rule[]): Rule =>
  (ctx) =>
    rules.flatMap((rule) => {
      try {
        return asList(rule(ctx)).filter((raw) => YEAR_ONLY.test(raw));
      } catch {
        return [];
      }
    });

const dated = [...published, ...inText, ...modified];

/**
 * The publication date: people reading "the date" of an article mean when it was published (annotators chose it
 * over a different modified date 101 times out of 128). A modification date is the last resort but for a year
 * alone, which a page gives for a film or a book (its release year, not the page's date) rather than for itself.
 */
export const date: FieldSpec = {
  rules: [...dated.map(withoutBareYears), bareYears(dated)],
  accept: (raw) => parseDate(raw, { keepOffset: true }),
};
