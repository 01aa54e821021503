import { asList, perPage, type FieldSpec, type Rule } from '../rules.ts';
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

export const description: FieldSpec = {
  rules: [
    ...RULES.map((rule) => siteWideText(rule, false)),
    // The site's description when the page offers nothing of its own (a home page is described by it).
    ...RULES.map((rule) => siteWideText(rule, true)),
  ],
  accept(raw) {
    const value = normaliseText(raw);
    return value === '' ? undefined : value;
  },
};
