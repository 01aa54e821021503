import type { FieldSpec } from '../rules.ts';
import { mediaRules } from './media-sources.ts';

export const audio: FieldSpec = {
  rules: [
    ...mediaRules('audio'),
    // Podcast pages often offer only a download link.
    ({ facts }) => facts.audioLinks,
  ],
  accept: (raw, ctx) => ctx.resolve(raw),
};
