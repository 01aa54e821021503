/**
 * `meta` and the `audio` / `video` flags. `meta.<field>=true` keeps only the fields listed that way;
 * `meta.<field>=false` drops a field from the default set; `audio` / `video` add their field. `logo` alone also
 * takes an object, `meta.logo.square=true` (Microlink's `meta: { logo: { square: true } }`), which lists it too.
 */
import { invalidParam } from '../errors.ts';
import { DEFAULT_META_FIELDS, isMetaField, META_FIELDS, type MetaField } from '../data/fields.ts';
import type { MetaOptions } from './options.ts';
import { child, feature, flag, flagOf, join, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

export interface MetaChoice {
  readonly meta: false | MetaOptions;
  readonly audio: boolean;
  readonly video: boolean;
}

export function readMeta(root: QueryNode): MetaChoice {
  const node = feature(child(root, 'meta'), true);
  const asked = new Map<MetaField, boolean>();
  let squareLogo = false;
  if (node !== false) {
    for (const [key, sub] of node.children) {
      const name = join('meta', key);
      if (!isMetaField(key)) {
        throw invalidParam(name, `\`${key}\` is not a field; the fields are ${META_FIELDS.join(', ')}`);
      }
      if (key === 'logo' && sub.children.size > 0) {
        const logo = readLogo({ node: sub, name });
        asked.set(key, logo !== false);
        squareLogo = logo !== false && logo.square;
      } else {
        asked.set(key, flag({ node: sub, name }));
      }
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
  return { meta: fields.length === 0 ? false : { fields, squareLogo: squareLogo && chosen.has('logo') }, audio, video };
}

function readLogo(found: Found): false | { square: boolean } {
  const node = feature(found, false);
  if (node === false) return false;
  for (const key of node.children.keys()) {
    if (key !== 'square') throw invalidParam(join(found.name, key), 'not an option of `meta.logo`; its option is `square`');
  }
  return { square: flagOf(node, 'square', false, found.name) };
}
