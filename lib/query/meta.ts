/**
 * `meta` and the `audio` / `video` flags. `meta.<field>=true` keeps only the fields listed that way;
 * `meta.<field>=false` drops a field from the default set; `audio` / `video` add their field.
 */
import { invalidParam } from '../errors.ts';
import { DEFAULT_META_FIELDS, isMetaField, META_FIELDS, type MetaField } from '../data/fields.ts';
import type { MetaOptions } from './options.ts';
import { child, feature, flag, join } from './read.ts';
import type { QueryNode } from './tree.ts';

export interface MetaChoice {
  readonly meta: false | MetaOptions;
  readonly audio: boolean;
  readonly video: boolean;
}

export function readMeta(root: QueryNode): MetaChoice {
  const node = feature(child(root, 'meta'), true);
  const asked = new Map<MetaField, boolean>();
  if (node !== false) {
    for (const [key, sub] of node.children) {
      const name = join('meta', key);
      if (!isMetaField(key)) {
        throw invalidParam(name, `\`${key}\` is not a field; the fields are ${META_FIELDS.join(', ')}`);
      }
      asked.set(key, flag({ node: sub, name }));
    }
  }

  const media = (key: 'audio' | 'video'): boolean => {
    const top = child(root, key);
    const flagged = top ? flag(top) : undefined;
    const listed = asked.get(key);
    if (flagged !== undefined && listed !== undefined && flagged !== listed) {
      throw invalidParam(join('meta', key), `it disagrees with \`${key}\`; give one or the other`);
    }
    return flagged ?? listed ?? false;
  };
  const audio = media('audio');
  const video = media('video');
  if (node === false) return { meta: false, audio, video };

  const kept = [...asked].filter(([, on]) => on).map(([field]) => field);
  const chosen = new Set<MetaField>(
    kept.length > 0 ? kept : DEFAULT_META_FIELDS.filter((field) => asked.get(field) !== false),
  );
  if (audio) chosen.add('audio');
  if (video) chosen.add('video');
  const fields = META_FIELDS.filter((field) => chosen.has(field));
  return { meta: fields.length === 0 ? false : { fields }, audio, video };
}
