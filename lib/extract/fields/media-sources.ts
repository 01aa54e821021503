import { metaValues } from '../facts.ts';
import { asUrl, typesOf } from '../jsonld.ts';
import { kindOfType, kindOfUrl, type MediaKind } from '../../media/types.ts';
import type { Rule } from '../rules.ts';
import { ldNodes, ldValues } from '../sources.ts';

/** A URL is of `kind` by its extension or by the MIME type declared beside it (`og:video:type`). */
const is = (kind: MediaKind, url: string, type?: string): boolean =>
  kindOfUrl(url) === kind || kindOfType(type) === kind;

/** Open Graph, Twitter player stream, JSON-LD and `<audio>`/`<video>` sources of one kind of media. Player
 *  pages (`og:video` = a YouTube embed, `text/html`) are not media files and are left out. */
export function mediaRules(kind: MediaKind): Rule[] {
  return [
    ({ facts }) => {
      const type = metaValues(facts, `og:${kind}:type`)[0];
      const urls = [
        ...metaValues(facts, `og:${kind}:secure_url`),
        ...metaValues(facts, `og:${kind}:url`),
        ...metaValues(facts, `og:${kind}`),
      ];
      return urls.filter((url) => is(kind, url, type));
    },
    ({ facts }) => {
      const type = metaValues(facts, 'twitter:player:stream:content_type')[0];
      return metaValues(facts, 'twitter:player:stream').filter((url) => is(kind, url, type));
    },
    (ctx) => {
      const out: string[] = [];
      for (const node of ldNodes(ctx)) {
        const declared = typesOf(node).some((t) => t.toLowerCase().startsWith(kind));
        for (const value of ldValues(ctx, 'contentUrl', [node])) {
          const url = asUrl(value);
          if (url && (declared || is(kind, url))) out.push(url);
        }
      }
      return out;
    },
    // The element says what it plays; a <source> says it through its parent, its type or its extension.
    ({ facts }) =>
      facts.media
        .filter((m) => m.tag === kind || (m.tag === 'source' && m.parent === kind))
        .filter((m) => m.tag === kind || is(kind, m.src, m.type) || kindOfUrl(m.src) === undefined)
        .map((m) => m.src),
  ];
}
