/**
 * Turns a fetched body into text the way browsers choose an encoding (WHATWG HTML §13.2.3.2: BOM, then the
 * transport's charset, then a <meta> prescan), with a better guess than theirs when nothing is declared.
 * Node's TextDecoder (full ICU) maps labels the WHATWG way: iso-8859-1 and ascii are windows-1252, gb2312 is
 * gbk, x-sjis is shift_jis.
 */
import { isUtf8 } from 'node:buffer';
import { MIMEType } from 'node:util';
import { analyse } from 'chardet';

/** The spec prescans 1024 bytes; real pages put a long <head> before their <meta charset>, so look further. */
const PRESCAN_BYTES = 4096;
/** Enough text for chardet's statistics, without scanning megabytes. */
const DETECTION_SAMPLE_BYTES = 64 * 1024;
/** What browsers fall back to for undeclared pages in most locales. */
const FALLBACK = 'windows-1252';

/** The WHATWG encoding name for a label, or undefined when it is unknown or Node cannot decode it. */
function encodingFor(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

function bomEncoding(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Node's MIMEType parses as the WHATWG MIME Sniffing standard does, and throws where it says "failure". */
function headerEncoding(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  try {
    return encodingFor(new MIMEType(contentType).params.get('charset') ?? undefined);
  } catch {
    return undefined;
  }
}

/** WHATWG "extract a character encoding from a meta element", for `content="text/html; charset=…"`. */
function charsetInContent(content: string): string | undefined {
  const match = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [, name, ...values] of tag.matchAll(ATTRIBUTE)) {
    const key = name!.toLowerCase();
    // As in the spec's prescan, the first occurrence of an attribute wins.
    if (!found.has(key)) found.set(key, values.find((value) => value !== undefined) ?? '');
  }
  return found;
}

/** The prescan, simplified: the first <meta> outside comments that declares an encoding Node knows. */
function metaEncoding(body: Buffer): string | undefined {
  // latin1 maps every byte to one character, so ASCII markup reads the same in any ASCII-compatible encoding.
  const head = body.subarray(0, PRESCAN_BYTES).toString('latin1').replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (const [tag] of head.matchAll(/<meta[\s/][^>]*>?/gi)) {
    const attrs = attributes(tag.slice(5));
    const pragma = attrs.get('http-equiv')?.toLowerCase() === 'content-type';
    const encoding = encodingFor(attrs.get('charset') ?? (pragma ? charsetInContent(attrs.get('content') ?? '') : undefined));
    // A page that reached us as bytes read as ASCII cannot really be UTF-16, whatever it says (spec, step 2.7).
    if (encoding) return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  }
  return undefined;
}

/**
 * Undeclared pages: valid UTF-8 is UTF-8 (legacy text almost never is), then chardet's best guess. ISO-2022-JP
 * is pure 7-bit and so valid UTF-8 too; its escape sequences (ESC) send it to chardet.
 */
function detectedEncoding(body: Buffer): string | undefined {
  if (isUtf8(body) && !body.includes(0x1b)) return 'utf-8';
  for (const { name } of analyse(body.subarray(0, DETECTION_SAMPLE_BYTES))) {
    // HTML without a BOM is never UTF-16/32 in browsers; chardet offers them for binary-looking bytes.
    if (/^utf-(16|32)/i.test(name)) continue;
    const encoding = encodingFor(name);
    if (encoding) return encoding;
  }
  return undefined;
}

/** Decodes an HTML (or text) body the way browsers do, but better at guessing. */
export function decodeHtml(body: Buffer, contentType: string | undefined): { text: string; charset: string } {
  const charset =
    bomEncoding(body) ?? headerEncoding(contentType) ?? metaEncoding(body) ?? detectedEncoding(body) ?? FALLBACK;
  // The decoder drops a BOM that matches its encoding; a BOM always wins above, so it always matches.
  return { text: new TextDecoder(charset).decode(body), charset };
}
