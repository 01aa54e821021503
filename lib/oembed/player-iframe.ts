/**
 * What a page's own oEmbed answer may put in `iframe.html` (issue 25). The page names its discovery endpoint, so
 * that answer's markup is the page's, and callers insert it into their own pages or open it as `embed=iframe.html`.
 * A player needs one thing: an `<iframe>` of the provider's https player. That element is kept, with the
 * attributes a player uses, each checked; everything else (scripts, other elements, event handlers, styles, an
 * http: frame) is dropped. The registry's providers are known, and their markup is kept whole (lib/oembed/embed.ts).
 */
import { Parser } from 'htmlparser2';
import { attributesOf } from './markup.ts';

/** A player's markup is a few hundred bytes: past this it is not one (and the parse stays small). */
export const MAX_DISCOVERED_MARKUP = 64 * 1024;

/** Permissions a player asks its frame for; anything else (camera, microphone, geolocation…) is dropped. */
const PLAYER_FEATURES = new Set(['autoplay', 'clipboard-write', 'encrypted-media', 'fullscreen', 'picture-in-picture', 'web-share', 'accelerometer', 'gyroscope']);
const REFERRER_POLICIES = new Set([
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
]);

const oneOf = (values: ReadonlySet<string>) => (value: string): string | undefined => (values.has(value.toLowerCase()) ? value.toLowerCase() : undefined);
const matching = (pattern: RegExp) => (value: string): string | undefined => (pattern.test(value) ? value : undefined);
const size = matching(/^\d{1,5}(?:%|px)?$/);

/** Feature names only: an allowlist in the value would reach past the player's own origin. */
function features(value: string): string | undefined {
  const kept = value.split(';').map((entry) => entry.trim().split(/\s+/)[0]!.toLowerCase()).filter((feature) => PLAYER_FEATURES.has(feature));
  return kept.length > 0 ? [...new Set(kept)].join('; ') : undefined;
}

/** The attributes kept, each with the check its value must pass (undefined: dropped). */
const KEPT: Readonly<Record<string, (value: string) => string | true | undefined>> = {
  width: size,
  height: size,
  title: (value) => value.slice(0, 300),
  allow: features,
  allowfullscreen: () => true,
  frameborder: matching(/^[01]$/),
  loading: oneOf(new Set(['lazy', 'eager'])),
  referrerpolicy: oneOf(REFERRER_POLICIES),
  scrolling: oneOf(new Set(['yes', 'no', 'auto'])),
};

const httpsSource = (value: string | undefined): string | undefined => {
  const url = value === undefined ? null : URL.parse(value.trim());
  return url?.protocol === 'https:' ? url.href : undefined;
};

/** The first https `<iframe>` of `html`, rewritten with its checked attributes only; undefined when there is none. */
export function playerIframe(html: string): string | undefined {
  if (html.length > MAX_DISCOVERED_MARKUP) return undefined;
  let found: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const src = name === 'iframe' && found === undefined ? httpsSource(attributes['src']) : undefined;
        if (src === undefined) return;
        const kept: Array<[string, string | true]> = [['src', src]];
        for (const [attribute, check] of Object.entries(KEPT)) {
          const value = attributes[attribute] === undefined ? undefined : check(attributes[attribute].trim());
          if (value !== undefined) kept.push([attribute, value]);
        }
        found = `<iframe${attributesOf(kept)}></iframe>`;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return found;
}
