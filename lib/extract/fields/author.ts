import { metaValues, microdataValues } from '../facts.ts';
import { parseDate } from '../date.ts';
import { asList, type FieldSpec, type Rule } from '../rules.ts';
import { ldNodes, ldText, ldValues, meta, text } from '../sources.ts';
import { asText } from '../jsonld.ts';
import { normaliseText, textKey } from '../text.ts';
import { looksLikeUrl } from '../url.ts';

const MAX_LENGTH = 128;

/** Page furniture that class-name rules pick up next to bylines ("0 comments", "Share", "Sponsored"). */
const FURNITURE =
  /^\d|\b(?:comments?|share|follow|log ?in|sign (?:in|up)|subscribe|read more|sponsored|newsletter|menu)\b/i;

/** Text found by class names or links is noisy: drop page furniture. */
const guessed =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((value) => {
      const text = normaliseText(value);
      return !FURNITURE.test(text);
    });

/** Stricter still for broad selectors: a full name has two words or more. */
const strict =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(guessed(rule)(ctx)).filter((value) => /^\S+\s+\S+/.test(normaliseText(value)));

/** JSON-LD authors (string, Person, array of either), joined like a byline. */
const ldAuthor: Rule = (ctx) => {
  for (const node of ldNodes(ctx)) {
    const names = ldValues(ctx, 'author', [node])
      .map(asText)
      .filter((v): v is string => v !== undefined && normaliseText(v) !== '' && !looksLikeUrl(normaliseText(v)));
    if (names.length > 0) return joinNames(names);
  }
  return undefined;
};

function joinNames(names: string[]): string {
  const unique = [...new Set(names.map(normaliseText))];
  return unique.length <= 2 ? unique.join(' and ') : `${unique.slice(0, -1).join(', ')} and ${unique.at(-1)}`;
}

const notDate =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((value) => parseDate(value) === undefined);

export const author: FieldSpec = {
  rules: [
    ldAuthor,
    meta('author', 'dc.creator', 'dcterms.creator'),
    // Product pages name their maker as the brand (metascraper's habit, hence Microlink's).
    ldText('brand.name'),
    meta('article:author', 'og:article:author', 'parsely-author', 'sailthru.author', 'byl'),
    ({ facts }) => microdataValues(facts, 'name', 'author'),
    guessed(text('authorItemName')),
    guessed(text('authorItem')),
    strict(text('relAuthor')),
    strict(text('authorClassLink')),
    strict(text('linkInAuthorClass')),
    strict(text('authorHref')),
    guessed(text('screenname')),
    strict(text('authorClass')),
    strict(notDate(text('byline'))),
    // A creator handle equal to the site's handle is the brand's account, not a person.
    (ctx) => {
      const site = new Set(metaValues(ctx.facts, 'twitter:site').map(textKey));
      return metaValues(ctx.facts, 'twitter:creator').filter((handle) => !site.has(textKey(handle)));
    },
  ],
  accept(raw) {
    const value = normaliseText(raw)
      .replace(/^(?:(?:posted|written|words|story|text|reported)\s+)?by\s+|^@\s*/i, '')
      .trim();
    return value === '' || value.length > MAX_LENGTH || looksLikeUrl(value) ? undefined : value;
  },
};
