/**
 * What the framed capture stands on: a CSS colour or gradient (written into the overlay's style sheet), or an
 * image fetched under the address rules and inlined, so the overlay document itself never touches the network.
 */
import { GlanceError } from '../../errors.ts';
import { fetchPage, type FetchOptions } from '../../fetch/index.ts';
import { isImage, sniff } from '../../media/sniff.ts';
import { essence, mimeOf } from '../../media/types.ts';
import { isHttpUrl } from '../../query/css.ts';

const PARAM = 'screenshot.overlay.background';

function refused(reason: string): GlanceError {
  return new GlanceError('EINVALOVERLAYBG', `The \`${PARAM}\` parameter is invalid: ${reason}.`, {
    data: { [PARAM]: reason },
  });
}

/** Told apart from CSS the way lib/query tells them apart. */
export const isImageUrl = isHttpUrl;

/**
 * Functions a colour or gradient is made of. lib/query already checked the shape; this is the second line, so
 * that nothing able to load a resource (`url()`, `image-set()`, `src()`) or to escape the declaration reaches
 * the style sheet even if that check changes.
 */
const CSS_FUNCTIONS = new Set([
  'rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color', 'color-mix',
  'linear-gradient', 'radial-gradient', 'conic-gradient',
  'repeating-linear-gradient', 'repeating-radial-gradient', 'repeating-conic-gradient',
  'calc', 'min', 'max', 'clamp',
]);
const BREAKOUT = /[;{}<>"'`\\@!\n\r]|\/\*|<!--|-->/;

/** `value` as a CSS `background` value, or EINVALOVERLAYBG. */
export function cssBackground(value: string): string {
  const functions = [...value.matchAll(/([a-z-]*)\s*\(/gi)].map((match) => (match[1] ?? '').toLowerCase());
  if (BREAKOUT.test(value) || functions.some((name) => !CSS_FUNCTIONS.has(name))) {
    throw refused('a CSS colour or gradient may not contain url(), other resource functions or CSS punctuation');
  }
  return value;
}

/** The image type of `body`: its declared `image/*` type, else what its first bytes say, else undefined. */
function imageType(body: Buffer, contentType: string | undefined): string | undefined {
  const declared = essence(contentType);
  if (declared?.startsWith('image/') && /^image\/[a-z0-9.+-]+$/.test(declared)) return declared;
  const sniffed = sniff(body);
  return isImage(sniffed) ? mimeOf(sniffed!) : undefined;
}

export interface BackgroundImage {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * Fetches a background image through the guarded fetcher: a private address is EFORBIDDENURL before any
 * connection, redirects are vetted hop by hop, and the body is bounded by `maxBytes` and the budget.
 */
export function imageFetcher(options: FetchOptions): (url: string) => Promise<BackgroundImage> {
  return async (url) => {
    const page = await fetchPage(url, { ...options, headers: { accept: 'image/avif,image/webp,image/*;q=0.8' } });
    if (page.statusCode < 200 || page.statusCode > 299) {
      throw refused(`the background image ${url} answered HTTP ${page.statusCode}`);
    }
    const contentType = imageType(page.body, page.headers['content-type']);
    if (!contentType) {
      throw refused(`${url} is not an image (it answered ${page.headers['content-type'] ?? 'no content type'})`);
    }
    return { body: page.body, contentType };
  };
}
