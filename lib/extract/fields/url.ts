import type { FieldSpec } from '../rules.ts';
import { link, meta } from '../sources.ts';

export const url: FieldSpec = {
  rules: [
    meta('og:url'),
    meta('twitter:url'),
    link('canonical'),
    ({ facts }) => facts.links.filter((l) => l.rel === 'alternate' && l.hreflang === 'x-default').map((l) => l.href),
    ({ facts }) => facts.url,
  ],
  accept: (raw, ctx) => ctx.resolve(raw),
};
