import { parseDate, writtenTime } from '../date.ts';
import { microdataValues } from '../facts.ts';
import { asList, type Context, type FieldSpec, type Rule } from '../rules.ts';
import { declaredLang, ldText, meta, text } from '../sources.ts';

/** `<meta>` values whose key contains `part` (`article:published_time`, `og:published_time`, `published_time`). */
/** More than any page names its date under one naming scheme. */
const MAX_CANDIDATES = 16;

const metaContaining =
  (part: string): Rule =>
  ({ facts }) => {
    // At most MAX_CANDIDATES: a page may repeat its date under two hundred names, each searched for a date.
    const out: string[] = [];
    for (const [key, values] of facts.meta) if (key.includes(part)) out.push(...values);
    return out.slice(0, MAX_CANDIDATES);
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
  // The dateline under the headline, where a page marks its date up with nothing.
  text('afterH1'),
];

/** A year alone (`"datePublished": 2010`): it names no day, so any dated candidate is a better answer. */
const YEAR_ONLY = /^\s*\d{4}\s*$/;

const withoutBareYears =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((raw) => !YEAR_ONLY.test(raw));

/** Every candidate of `rules`, in order; a rule that throws yields none, as in firstValue. */
const candidatesOf = (rules: readonly Rule[], ctx: Context): string[] =>
  rules.flatMap((rule) => {
    try {
      return asList(rule(ctx));
    } catch {
      return [];
    }
  });

/** The bare years the rules found, for a page that gives nothing more precise. */
const bareYears =
  (rules: readonly Rule[]): Rule =>
  (ctx) =>
    candidatesOf(rules, ctx).filter((raw) => YEAR_ONLY.test(raw));

const dated = [...published, ...inText, ...modified];

/**
 * A time written without its zone ("2020-07-09 07:26:05" in JSON-LD) takes the offset the page writes for the same
 * day and clock time elsewhere ("2020-07-09T07:26:05+07:00" in article:published_time): read as UTC, it would be
 * hours off. The candidates keep their order otherwise.
 */
const zonedTwin =
  (rules: readonly Rule[]): Rule =>
  (ctx) => {
    const raws = candidatesOf(rules, ctx);
    const lang = declaredLang(ctx.facts);
    const first = raws.findIndex((raw) => parseDate(raw, { lang }) !== undefined);
    const written = first < 0 ? undefined : writtenTime(raws[first]!);
    if (written === undefined || written.zoned) return raws;
    const twin = raws.slice(first + 1).find((raw) => {
      const other = writtenTime(raw);
      return other !== undefined && other.zoned && other.local === written.local;
    });
    return twin === undefined ? raws : [twin, ...raws];
  };

/**
 * The publication date: people reading "the date" of an article mean when it was published (annotators chose it
 * over a different modified date 101 times out of 128). A modification date is the last resort but for a year
 * alone, which a page gives for a film or a book (its release year, not the page's date) rather than for itself.
 */
export const date: FieldSpec = {
  rules: [zonedTwin([...published, ...inText].map(withoutBareYears)), ...modified.map(withoutBareYears), bareYears(dated)],
  accept: (raw, ctx) => parseDate(raw, { keepOffset: true, lang: declaredLang(ctx.facts) }),
};
