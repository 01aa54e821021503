import { texts } from '../facts.ts';
import { cleanHeadline, titleParts, withoutSiteAffix } from '../headline.ts';
import { asList, perPage, type Context, type FieldSpec, type Rule } from '../rules.ts';
import { declaresSite, namesSite, siteNames } from '../site-names.ts';
import { ldText, meta, text } from '../sources.ts';
import { normaliseText, textKey } from '../text.ts';

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

/** The headline a page writes for sharing and search, apart from its `<title>`. */
const SHARED: readonly Rule[] = [meta('og:title'), meta('twitter:title'), ldText('headline')];

/** Words, and each character of the scripts written without spaces. */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\s\p{P}\p{S}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
const wordsOf = (text: string): Set<string> => new Set(text.toLowerCase().match(WORD) ?? []);
/** A heading of fewer words is a label ("Willkommen!", "News"), not a headline to compare. */
const MIN_HEADLINE_WORDS = 2;
/** The share of the shorter title's words the visible headline and the `<title>` have in common to be one story. */
const SAME_STORY = 0.6;

function sameStory(a: string, b: string): boolean {
  const x = wordsOf(a);
  const y = wordsOf(b);
  const shared = [...x].filter((word) => y.has(word)).length;
  return shared >= SAME_STORY * Math.min(x.size, y.size);
}

/** The keys of the `<h1>`s that link home or are styled as the site's name. */
const homeHeadings = perPage((ctx): ReadonlySet<string> => new Set(texts(ctx.facts, 'h1Home').map(textKey)));

/** Whether `heading` is the site's name or logo rather than a headline: a name the site goes by
 *  (`<h1>DimidoBlog</h1>` on dimido.de), or a heading that links home. */
const isLogoHeading = (heading: string, ctx: Context): boolean =>
  namesSite(heading, siteNames(ctx)) || homeHeadings(ctx).has(textKey(heading));

/** The `<h1>`s that are not the site's logo. */
const headings = perPage((ctx): string[] => [...new Set(texts(ctx.facts, 'h1'))].filter((h1) => !isLogoHeading(h1, ctx)));

/**
 * The headline readers see, on a page that writes no headline of its own for sharing (no og:title, or only a copy
 * of its `<title>`): its one `<h1>` (the logo's aside) when it tells the same story as the `<title>`, which is
 * written for search results and tabs.
 */
function visibleHeadline(ctx: Context): string | undefined {
  const [only, ...others] = headings(ctx);
  const title = normaliseText(ctx.facts.title ?? '');
  if (only === undefined || others.length > 0 || title === '') return undefined;
  const shared = SHARED.flatMap((rule) => asList(rule(ctx)).map(normaliseText));
  const parts = titleParts(title);
  // The title's first part, the rest set apart after it, is the headline when the heading says it alone ("Penny -
  // Stardew Valley Wiki" over `<h1>Penny</h1>`): sites put their name and tagline after the headline. Not before a
  // colon: "Chronik: Was geschah" is a section's story.
  const first = parts.length > 1 && textKey(parts[0]!) === textKey(only) && !/^[:：]/.test(title.slice(parts[0]!.length).trim());
  // A sharing headline of the page's own is what it chose, unless its `<title>` is the heading (alone, or with the
  // site's affix) and the sharing one tells the same story: a rewrite for social feeds, where readers see the heading.
  const rewritten = shared.filter((headline) => headline !== title);
  if (rewritten.length > 0) {
    const retold = wordsOf(only).size >= MIN_HEADLINE_WORDS && rewritten.every((headline) => sameStory(only, headline));
    return retold && (first || cleanHeadline(title, [only]) === only) ? only : undefined;
  }
  if (first) return only;
  if (wordsOf(only).size < MIN_HEADLINE_WORDS) return undefined;
  // Any other part is the headline when it is the longest; a shorter one is the show's or site's name ("117: A
  // Guest on Redwood | React Podcast" over `<h1>React Podcast</h1>`).
  const longest = Math.max(...parts.map((part) => part.length));
  if (parts.some((part) => textKey(part) === textKey(only) && part.length < longest)) return undefined;
  // A heading the title continues without a space is part of a longer name ("Spider-Man Far From Home-Homecoming").
  if (title.length > only.length && title.toLowerCase().startsWith(only.toLowerCase()) && !/^\s/.test(title.slice(only.length))) return undefined;
  return sameStory(only, title) ? only : undefined;
}

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
    headings,
  ],
  accept(raw) {
    const value = normaliseText(raw);
    return value === '' ? undefined : value;
  },
  settle(value, ctx) {
    const visible = visibleHeadline(ctx);
    if (visible !== undefined) return visible;
    const twins = TWINS.flatMap((rule) => asList(rule(ctx)).map(normaliseText)).filter((twin) => !isLogoHeading(twin, ctx));
    const names = siteNames(ctx);
    return withoutSiteAffix(
      cleanHeadline(value, twins),
      (part) => namesSite(part, names) || isLogoHeading(part, ctx),
      (part) => declaresSite(part, names) || homeHeadings(ctx).has(textKey(part)),
    );
  },
};
