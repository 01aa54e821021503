import { microdataValues } from '../facts.ts';
import { normaliseLang } from '../lang.ts';
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
  ],
  accept: (raw) => normaliseLang(raw),
};
