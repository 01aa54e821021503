import { metaValues, microdataValues, texts } from '../facts.ts';
import { normaliseLang } from '../lang.ts';
import { languageOfScript } from '../script-lang.ts';
import type { FieldSpec } from '../rules.ts';
import { ldText, meta } from '../sources.ts';

export const lang: FieldSpec = {
  rules: [
    meta('og:locale'),
    meta('inlanguage'),
    ({ facts }) => facts.htmlLang,
    meta('http-equiv:content-language', 'language', 'content-language', 'dc.language', 'dcterms.language'),
    ({ facts }) => microdataValues(facts, 'inlanguage'),
    ldText('inLanguage'),
    // Nothing declared: the writing system of what the page says about itself, where it names one language.
    ({ facts }) =>
      languageOfScript([facts.title ?? '', ...metaValues(facts, 'description'), ...texts(facts, 'h1'), ...texts(facts, 'paragraph')].join(' ')),
  ],
  accept: (raw) => normaliseLang(raw),
};
