/**
 * Microlink's `filename` (https://microlink.io/docs/api/parameters/filename): the name a stored asset is saved
 * under. A caller's text becomes a name that is safe as a path segment in a bucket key, on a local disk, in a URL
 * and in a `Content-Disposition` header — never refused for a character, only when nothing nameable is left.
 */

/** The extensions Glance stores under (keys.ts); a name's own trailing ones are dropped, the stored type's added. */
const STORED_EXTENSIONS = /(\.(png|jpe?g|pdf|webp|json|html?|csv))+$/i;

// Path separators, Windows' reserved characters, `%` (the URL and the RFC 5987 encoding escape with it), `#` and
// `;` (they end a URL path and a header parameter), and controls, line separators and the bidirectional overrides
// that make `invoice\u202Efdp.exe` display as `invoiceexe.pdf`.
const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\u200e\u200f\u202a-\u202e\u2066-\u2069<>:"/\\|?*%#;]/gu;

/** Windows refuses these as a file's name whatever its extension. */
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

/** UTF-8 bytes of a name before its extension: with `.ext` and a temporary file's affixes, under 255 bytes. */
export const MAX_NAME_BYTES = 128;

/** Made on first use: ICU's break data costs ~9 ms of CPU, which every cold start would pay (bench/coldstart). */
let graphemes: Intl.Segmenter | undefined;

/** The longest prefix within `max` UTF-8 bytes that ends between two graphemes (no half an emoji or accent). */
function truncate(name: string, max: number): string {
  if (Buffer.byteLength(name) <= max) return name;
  let kept = '';
  let bytes = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(name)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > max) break;
    kept += segment;
  }
  return kept;
}

const trimEnds = (name: string): string => name.replace(/^[\s.-]+|[\s.]+$/gu, '');

/**
 * The safe stem of a caller's file name (no extension), or undefined when nothing but `_`, dots, dashes and spaces
 * is left. Idempotent: a safe stem is its own result, which is how stored keys are checked (keys.ts).
 */
export function safeFileName(raw: string): string | undefined {
  let name = raw
    .normalize('NFC')
    .replace(/[\t\n\v\f\r]/g, ' ')
    .replace(UNSAFE, '_')
    .replace(/\s+/gu, ' ')
    .replace(/_{2,}/g, '_')
    .replace(/\.{2,}/g, '.');
  name = trimEnds(trimEnds(name).replace(STORED_EXTENSIONS, ''));
  name = trimEnds(truncate(name, MAX_NAME_BYTES));
  if (DEVICE.test(name)) name = `_${name}`;
  return /[^\s._-]/u.test(name) ? name : undefined;
}

export const isSafeFileName = (name: string): boolean => safeFileName(name) === name;

/** RFC 5987 `attr-char`s stay, everything else is UTF-8 percent-encoded. */
const encodeExtValue = (value: string): string =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `inline` (a screenshot still shows in an `<img>`, a PDF in the browser's viewer) with the name a download is
 * saved under (RFC 6266): `filename` in ASCII for every client, and `filename*` (RFC 8187) with the exact UTF-8
 * name when the ASCII one had to differ (accents dropped, other characters as `_`).
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    // Compatibility forms decompose to ASCII (`＂` to `"`, `／` to `/`): those are made safe again.
    .replace(UNSAFE, '_')
    .replace(/[^\x20-\x7e]/gu, '_')
    .replace(/_{2,}/g, '_');
  const plain = `inline; filename="${ascii}"`;
  return ascii === fileName ? plain : `${plain}; filename*=UTF-8''${encodeExtValue(fileName)}`;
}
