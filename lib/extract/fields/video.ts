import type { FieldSpec } from '../rules.ts';
import { mediaRules } from './media-sources.ts';

export const video: FieldSpec = {
  rules: mediaRules('video'),
  accept: (raw, ctx) => ctx.resolve(raw),
};
