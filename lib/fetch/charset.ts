/**
 * Turns a fetched body into text the way browsers choose an encoding (WHATWG HTML §13.2.3.2: BOM, then the
 * transport's charset, then a <meta> prescan), with a better guess than theirs when nothing is declared.
 * Node's TextDecoder (full ICU) maps labels the WHATWG way: iso-8859-1 and ascii are windows-1252, gb2312 is
 * gbk, x-sjis is shift_jis.
 */
import { isUtf8 } from 'node:buffer';
import { analyse } from 'chardet';
import { slices } from '../time/slices.ts';

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

/**
 * Node's MIMEType parses as the WHATWG MIME Sniffing standard does, and throws where it says "failure". node:util is
 * read, not imported: its ES import loads worker_threads, parseArgs and diff's modules (lib/query/read.ts).
 */
export function headerEncoding(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  try {
    return encodingFor(new (process.getBuiltinModule('node:util').MIMEType)(contentType).params.get('charset') ?? undefined);
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

/** The encoding a body declares (WHATWG's order: BOM, the transport's charset, a <meta> prescan), from its head. */
const declaredEncoding = (head: Buffer, contentType: string | undefined): string | undefined =>
  bomEncoding(head) ?? headerEncoding(contentType) ?? metaEncoding(head);

/** ISO-2022-JP is pure 7-bit, so valid UTF-8 too; its escape sequences (ESC) keep it from being read as UTF-8. */
const mayBeUtf8 = (bytes: Buffer): boolean => !bytes.includes(0x1b);

/**
 * chardet's best guess from the head of an undeclared body that is not UTF-8, else what browsers fall back to. Its
 * statistics over SNIFF_BYTES take 27–82 ms of CPU: the service runs it in a worker (GuessEncoding, lib/work/).
 */
export function guessedEncoding(head: Uint8Array): string {
  for (const { name } of analyse(head.subarray(0, DETECTION_SAMPLE_BYTES))) {
    // HTML without a BOM is never UTF-16/32 in browsers; chardet offers them for binary-looking bytes.
    if (/^utf-(16|32)/i.test(name)) continue;
    const encoding = encodingFor(name);
    if (encoding) return encoding;
  }
  return FALLBACK;
}

/** Valid UTF-8 as far as `bytes` go: a head may end inside a character the rest of the body completes. */
function validUtf8SoFar(bytes: Buffer, whole: boolean): boolean {
  if (whole) return isUtf8(bytes);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** guessedEncoding where a deadline can stop it: the service's is a worker's (lib/work/charset.ts). */
export type GuessEncoding = (head: Buffer) => Promise<string>;

/** Valid UTF-8 is UTF-8 (legacy text almost never is). `head` is the body's start, or all of it when `whole`. */
const isUtf8Head = (head: Buffer, whole: boolean): boolean => validUtf8SoFar(head, whole) && mayBeUtf8(head);

/** How many first bytes of a body the choice of its encoding looks at, at most (a <meta> prescan, chardet's sample). */
export const SNIFF_BYTES = DETECTION_SAMPLE_BYTES;

/**
 * The encoding decodeHtml would choose for a body that declares none (no BOM, no usable charset in `contentType`,
 * no <meta>), from its first bytes alone (up to SNIFF_BYTES; `whole` when they are the entire body); undefined when
 * the body declares one, which browsers honour. Told to a browser, it makes the browser read the body as the fetch
 * path does (issue 25: Chromium never guesses UTF-8 for an http(s) page). One case only can differ: a body valid
 * UTF-8 for SNIFF_BYTES and not after, which the fetcher, seeing it all, reads by chardet's guess instead.
 */
export async function undeclaredCharset(head: Buffer, contentType: string | undefined, whole: boolean, guess: GuessEncoding): Promise<string | undefined> {
  if (declaredEncoding(head, contentType)) return undefined;
  return isUtf8Head(head, whole) ? 'utf-8' : guess(head);
}

/** Decodes an HTML (or text) body the way browsers do, but better at guessing, on this thread (tests and corpora). */
export function decodeHtml(body: Buffer, contentType: string | undefined): { text: string; charset: string } {
  const charset = declaredEncoding(body, contentType) ?? (isUtf8Head(body, true) ? 'utf-8' : guessedEncoding(body));
  // The decoder drops a BOM that matches its encoding; a BOM always wins above, so it always matches.
  return { text: new TextDecoder(charset).decode(body), charset };
}

/**
 * decodeHtml for a body as it was read, in chunks, into text in pieces (lib/text/pieces.ts), never joined: each chunk
 * is decoded in turn, giving the event loop back between them (lib/time/slices.ts). Decoding a 3 MB page in one go
 * held the loop 30–45 ms, and joining the pieces of a 10 MB one 35 ms (70 ms past Latin-1, two bytes a character).
 * An undeclared body is decoded as UTF-8 until a byte says it is not.
 */
export async function decodeBody(chunks: readonly Buffer[], contentType: string | undefined, guess: GuessEncoding, signal?: AbortSignal): Promise<{ text: string[]; charset: string }> {
  const head = headOf(chunks);
  const declared = declaredEncoding(head, contentType);
  if (declared) return { text: await decodeChunks(chunks, declared, signal), charset: declared };
  if (chunks.every(mayBeUtf8)) {
    const text = await decodeChunks(chunks, 'utf-8', signal, true).catch((error: unknown) => {
      if (error instanceof TypeError && (error as { code?: string }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') return undefined;
      throw error;
    });
    if (text !== undefined) return { text, charset: 'utf-8' };
  }
  const guessed = await guess(head);
  return { text: await decodeChunks(chunks, guessed, signal), charset: guessed };
}

/** The body's first bytes, enough for the prescan and chardet's sample. */
function headOf(chunks: readonly Buffer[]): Buffer {
  const head: Buffer[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (size >= DETECTION_SAMPLE_BYTES) break;
    head.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(head).subarray(0, DETECTION_SAMPLE_BYTES);
}

async function decodeChunks(chunks: readonly Buffer[], encoding: string, signal: AbortSignal | undefined, fatal = false): Promise<string[]> {
  const decoder = new TextDecoder(encoding, { fatal });
  const pause = slices(signal);
  const parts: string[] = [];
  for (const chunk of chunks) {
    parts.push(decoder.decode(chunk, { stream: true }));
    await pause();
  }
  parts.push(decoder.decode());
  return parts.filter((part) => part !== '');
}
