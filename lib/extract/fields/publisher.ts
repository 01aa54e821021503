import { asList, type FieldSpec, type Rule } from '../rules.ts';
import { ldText, meta, ofType, text } from '../sources.ts';
import { normaliseText } from '../text.ts';
import { looksLikeUrl } from '../url.ts';

const MAX_LENGTH = 100;

const accept: FieldSpec['accept'] = (raw) => {
  const value = normaliseText(raw);
  return value === '' || value.length > MAX_LENGTH || looksLikeUrl(value) ? undefined : value;
};

/** Logo texts and alts are a name only when short: long ones are taglines ("Site - Parts, Laptops and More!"). */
const short =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((v) => {
      const value = normaliseText(v);
      return value.length <= 40 && value.split(' ').length <= 5 && !/^logo$/i.test(value);
    });

export const publisher: FieldSpec = {
  rules: [
    // A publisher written into the article itself is specific to it; a site-wide graph node (`{"@id"}` reference,
    // Yoast's habit) names the company, where og:site_name names the site as readers know it.
    ldText('publisher.name', { follow: false }),
    meta('og:site_name'),
    ldText('publisher.name'),
    ldText('name', { filter: ofType('WebSite') }),
    meta('application-name', 'apple-mobile-web-app-title', 'app-title'),
    meta('al:ios:app_name', 'al:android:app_name', 'al:iphone:app_name', 'al:ipad:app_name'),
    meta('publisher', 'dc.publisher', 'dcterms.publisher'),
    meta('twitter:app:name:iphone', 'twitter:app:name:ipad', 'twitter:app:name:googleplay'),
    // Guesses from the page's furniture, short ones only.
    short(text('logoId')),
    short(text('logoClass')),
    short(text('brandLink')),
    // Logo images are described as "Site logo", "site_logo", "Site - Logo".
    short(({ facts }) => facts.logoAlts.map((alt) => alt.replace(/[\s_-]*logo$/i, ''))),
    ({ facts }) => (facts.title ? fromTitle(normaliseText(facts.title)) : undefined),
  ],
  accept,
};

/** "Story - Section | Site" → "Site". */
function fromTitle(title: string): string | undefined {
  const match = /^.*[-|]\s+(.*)$/.exec(title);
  return match?.[1];
}
