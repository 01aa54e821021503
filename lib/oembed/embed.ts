/**
 * An oEmbed answer → Microlink's `iframe = { html, scripts }`: the markup to insert, and apart from it the
 * `<script src>` it needs (each as its attributes), because scripts set through innerHTML never run and a page
 * embedding several posts wants to load a provider's widget script once.
 */
import { Parser } from 'htmlparser2';
import { attributesOf } from './markup.ts';
import { playerIframe } from './player-iframe.ts';
import type { OembedResponse } from './request.ts';

export interface IframeScript {
  readonly src: string;
  readonly [attribute: string]: string | boolean;
}

export interface Iframe {
  readonly html: string;
  readonly scripts: IframeScript[];
}

/** Attributes whose presence is their value (`async`, `defer`), answered as `true`. */
const BOOLEAN_ATTRIBUTES = new Set(['async', 'defer', 'nomodule']);

/**
 * `known`: the answer came from a registered provider's endpoint, whose markup is kept whole; a page's own
 * endpoint (discovery) gets its https player `<iframe>` alone (player-iframe.ts), or no embed.
 */
export function toIframe(oembed: OembedResponse, known: boolean): Iframe | null {
  const type = typeof oembed['type'] === 'string' ? oembed['type'].toLowerCase() : '';
  if ((type === 'rich' || type === 'video') && typeof oembed['html'] === 'string' && oembed['html'].trim() !== '') {
    if (known) return splitScripts(oembed['html']);
    const player = playerIframe(oembed['html']);
    return player === undefined ? null : { html: player, scripts: [] };
  }
  if (type === 'photo') return photo(oembed);
  return null;
}

/** §2.3.4.1: a photo answer carries a URL and its size, not markup; the embed is an image of it. */
function photo(oembed: OembedResponse): Iframe | null {
  const src = typeof oembed['url'] === 'string' ? URL.parse(oembed['url']) : null;
  if (!src || (src.protocol !== 'https:' && src.protocol !== 'http:')) return null;
  const attributes: Array<[string, unknown]> = [
    ['src', src.href],
    ['width', oembed['width']],
    ['height', oembed['height']],
    ['alt', oembed['title']],
  ];
  const given = attributes
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
    .map(([name, value]): [string, string] => [name, String(value)]);
  return { html: `<img${attributesOf(given)}>`, scripts: [] };
}

/** Cuts every `<script src>…</script>` out of the markup (by the parser's offsets, so the rest stays byte for byte). */
export function splitScripts(html: string): Iframe {
  const scripts: IframeScript[] = [];
  const cuts: Array<[number, number]> = [];
  let open: { start: number; attributes: Record<string, string> } | undefined;
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'script' && attributes['src']) open = { start: parser.startIndex, attributes };
      },
      onclosetag(name) {
        if (name !== 'script' || !open) return;
        const { src, ...rest } = open.attributes;
        const script: Record<string, string | boolean> = { src: src ?? '' };
        for (const [key, value] of Object.entries(rest)) script[key] = BOOLEAN_ATTRIBUTES.has(key) ? true : value;
        scripts.push(script as IframeScript);
        cuts.push([open.start, parser.endIndex + 1]);
        open = undefined;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  let kept = '';
  let from = 0;
  for (const [start, end] of cuts) {
    kept += html.slice(from, start);
    from = end;
  }
  kept += html.slice(from);
  return { html: kept.trim(), scripts };
}
