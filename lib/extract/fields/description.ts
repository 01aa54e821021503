import { asList, perPage, type FieldSpec, type Rule } from '../rules.ts';
import { metaValues, texts } from '../facts.ts';
import { ldText, meta, ofType } from '../sources.ts';
import { normaliseText, textKey } from '../text.ts';

const RULES: readonly Rule[] = [
  meta('og:description'),
  meta('twitter:description'),
  meta('description'),
  meta('dc.description', 'dcterms.description', 'dcterms.abstract'),
  ldText('description'),
];

const SITE_WIDE = ofType('WebSite', 'Organization', 'NewsMediaOrganization', 'Corporation');

/**
 * What the whole site says of itself (its WebSite or Organization node's description or slogan): a page whose
 * og:description is that text says nothing of its own there. Only on pages that also describe something else.
 */
const siteWide = perPage(
  (ctx): ReadonlySet<string> =>
    new Set(
      [...asList(ldText('description', { filter: SITE_WIDE })(ctx)), ...asList(ldText('slogan', { filter: SITE_WIDE })(ctx))]
        .map(textKey)
        .filter(Boolean),
    ),
);

/** The candidates of `rule` that are (`boilerplate`) or are not the site's own description. */
const siteWideText =
  (rule: Rule, boilerplate: boolean): Rule =>
  (ctx) => {
    const site = siteWide(ctx);
    return asList(rule(ctx)).filter((raw) => site.has(textKey(raw)) === boilerplate);
  };

/** An article's lead: the first paragraph of its text that reads like prose. */
const MIN_LEAD_CHARS = 40;
const MIN_LEAD_WORDS = 6;
const lead: Rule = (ctx) => {
  if (!metaValues(ctx.facts, 'og:type').some((type) => /^article$/i.test(type.trim()))) return undefined;
  return texts(ctx.facts, 'paragraph').filter((p) => p.length >= MIN_LEAD_CHARS && p.split(' ').length >= MIN_LEAD_WORDS).slice(0, 1);
};

export const description: FieldSpec = {
  rules: [
    ...RULES.map((rule) => siteWideText(rule, false)),
    // The site's description when the page offers nothing of its own (a home page is described by it).
    ...RULES.map((rule) => siteWideText(rule, true)),
    // An article that declares no description is described by its lead paragraph, as a news reader shows it.
    lead,
  ],
  accept(raw) {
    const value = normaliseText(raw);
    return value === '' ? undefined : value;
  },
};
