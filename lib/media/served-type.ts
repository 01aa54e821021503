/**
 * The content type Glance may answer a third party's bytes with (`embed.proxy`, docs/CONTRACT.md §6): only image,
 * video and audio, decided by the bytes first and the server's label second. A label alone never makes a file
 * media: an HTML error page served as `image/png` is still a page, and a browser opening the answer must find
 * nothing in it to run.
 */
import { essence, mimeOf } from './types.ts';
import { isImage, sniff, type Sniffed } from './sniff.ts';

export type ServedType = { readonly contentType: string } | { readonly refused: string };

const SVG = 'image/svg+xml';

/** A media type as a label names it, lower case, without parameters (RFC 6838 §4.2's restricted names). */
const MEDIA_MIME = /^(image|audio|video)\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** Sniffed types whose extension has no MIME type of its own in lib/media/types.ts. */
const FALLBACK_MIME: Partial<Record<Sniffed, string>> = { heic: 'image/heic', mkv: 'video/x-matroska' };

/** How many leading bytes decide "text" (the WHATWG MIME Sniffing standard's resource header: 1445 bytes). */
const TEXT_WINDOW = 1445;

/**
 * Whether the bytes read as text: none of the "binary data bytes" of MIME Sniffing §3 (controls other than tab,
 * line feed, form feed, carriage return and escape) in the first bytes. Every media format has some; a JSON
 * error, a plain-text "Not Found" or markup has none.
 */
function readsAsText(bytes: Buffer): boolean {
  const end = Math.min(bytes.length, TEXT_WINDOW);
  for (let at = 0; at < end; at++) {
    const byte = bytes[at]!;
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return false;
  }
  return true;
}

/**
 * - bytes an HTML document: refused;
 * - bytes an SVG image: `image/svg+xml` whatever the label (its scripts never run: the answer's CSP is a sandbox
 *   with `default-src 'none'`, and an `<img>` runs none anyway);
 * - bytes of a known image, video or audio format: the label when it names the same kind (an image as `image/*`,
 *   audio or video as `audio/*` or `video/*`, whose containers are shared: WebM, MP4, Ogg), else the format's own;
 * - bytes no signature names: the label when it is a media type other than SVG and the bytes are not text.
 */
export function servedType(label: string | undefined, bytes: Buffer): ServedType {
  const mime = essence(label) ?? '';
  const labelled = MEDIA_MIME.test(mime) && mime !== SVG ? mime : undefined;
  const sniffed = sniff(bytes);
  if (sniffed === 'html') return { refused: 'an HTML page' };
  if (sniffed === 'svg') return { contentType: SVG };
  if (sniffed !== undefined) {
    const sameKind = labelled !== undefined && labelled.startsWith('image/') === isImage(sniffed);
    return { contentType: sameKind ? labelled : (mimeOf(sniffed) ?? FALLBACK_MIME[sniffed] ?? 'application/octet-stream') };
  }
  if (readsAsText(bytes)) return { refused: `text${mime ? ` labelled ${mime}` : ''}` };
  if (labelled) return { contentType: labelled };
  return { refused: mime ? `a file of type ${mime}` : 'a file of no declared type that Glance does not recognise' };
}
