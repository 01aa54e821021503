/**
 * The stored form of one cached answer: a line of versioned JSON (status, headers, times, a SHA-256 of the body), then
 * the body as it is. A partial write, a flipped byte or an entry written by an older format reads back as "absent" (a
 * miss), never as a wrong answer. The body is not a JSON string inside the entry: escaping a 4 MB answer again, and
 * parsing it back on a hit, held the event loop ~20 ms each way (version 1 did).
 */
import { createHash } from 'node:crypto';
import { allPieces, type Text } from '../text/pieces.ts';
import { slices } from '../time/slices.ts';
import type { CacheEntry } from './index.ts';

const VERSION = 2;

const KEY = /^[0-9a-f]{64}$/;

/** Only keys cacheKey could have made reach the disk or the bucket (no `/`, no `..`). */
export const isCacheKey = (key: string): boolean => KEY.test(key);

/** The file (local) or object name (under the S3 prefix) of an entry. */
export const entryName = (key: string): string => `${key}.json`;

/** Characters of the body hashed or written at a time. */
const PIECE = 64 * 1024;

/**
 * The entry in pieces, to be written one after another: the head line, then the body a piece at a time. Hashing and
 * encoding a 4 MB answer in one go held the event loop ~30 ms; here the loop is given back between pieces.
 */
export async function encodeEntry(entry: CacheEntry): Promise<string[]> {
  const { answer, createdAt, ttl } = entry;
  const pieces = [...allPieces(answer.body, PIECE)];
  const hash = createHash('sha256');
  const pause = slices();
  for (const piece of pieces) {
    // Pieces never split a surrogate pair, so their UTF-8 bytes are the body's, in order.
    hash.update(piece);
    await pause();
  }
  const head = JSON.stringify({
    v: VERSION,
    createdAt,
    ttl,
    statusCode: answer.statusCode,
    headers: answer.headers,
    sha256: hash.digest('hex'),
    ...(answer.isBase64Encoded ? { base64: true } : {}),
  });
  // JSON.stringify writes no line break: the first one ends the head.
  return [`${head}\n`, ...pieces];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringRecord = (value: unknown): value is Record<string, string> =>
  isRecord(value) && Object.values(value).every((item) => typeof item === 'string');

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The head line of an entry this version wrote, with valid times, and where it ends; undefined otherwise. */
function headOf(bytes: Uint8Array): { stored: Record<string, unknown> & { createdAt: number; ttl: number }; end: number } | undefined {
  const end = bytes.indexOf(0x0a);
  if (end < 0) return undefined;
  const stored = parse(new TextDecoder().decode(bytes.subarray(0, end)));
  if (!isRecord(stored) || stored.v !== VERSION) return undefined;
  const { createdAt, ttl } = stored;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined;
  if (typeof ttl !== 'number' || !(ttl > 0) || !Number.isFinite(ttl)) return undefined;
  return { stored: { ...stored, createdAt, ttl }, end };
}

/** Bytes that hold any entry's head line (its status, headers and times): what a look at its expiry reads. */
export const HEAD_BYTES = 64 * 1024;

/** When the entry whose first bytes are `head` expires (epoch ms); undefined when they are not an entry's head. */
export function expiryOfHead(head: Uint8Array): number | undefined {
  const found = headOf(head);
  return found && found.stored.createdAt + found.stored.ttl;
}

/**
 * undefined for anything that is not, byte for byte, an entry this version wrote. The body is hashed and decoded a
 * piece at a time, the event loop given back between pieces; a body of more than one piece stays in pieces
 * (lib/text/pieces.ts).
 */
export async function decodeEntry(bytes: Uint8Array): Promise<CacheEntry | undefined> {
  const head = headOf(bytes);
  if (!head) return undefined;
  const { createdAt, ttl, statusCode, headers, sha256: sum, base64 } = head.stored;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    return undefined;
  }
  if (!isStringRecord(headers) || typeof sum !== 'string') return undefined;
  if (base64 !== undefined && base64 !== true) return undefined;
  const body = await checkedText(bytes.subarray(head.end + 1), sum);
  if (body === undefined) return undefined;
  const answer = { statusCode, headers: { ...headers }, body, ...(base64 ? { isBase64Encoded: true } : {}) };
  return { answer, createdAt, ttl };
}

/** Bytes of the body hashed and decoded at a time. */
const PIECE_BYTES = 64 * 1024;

/** The UTF-8 `bytes` as text, one string or pieces; undefined unless their SHA-256 is `sum`. */
async function checkedText(bytes: Uint8Array, sum: string): Promise<Text | undefined> {
  const hash = createHash('sha256');
  // A body that starts with U+FEFF keeps it: the decoder would otherwise take it for a byte order mark.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const pause = slices();
  const pieces: string[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    const chunk = bytes.subarray(at, at + PIECE_BYTES);
    hash.update(chunk);
    // A streaming decoder holds back a character whose bytes are cut: no piece ends inside one, or between the two
    // halves of a pair, so each stands alone (lib/text/pieces.ts; tests/cache/contract.ts checks it).
    pieces.push(decoder.decode(chunk, { stream: true }));
    await pause();
  }
  pieces.push(decoder.decode());
  if (hash.digest('hex') !== sum) return undefined;
  const text = pieces.filter((piece) => piece !== '');
  return text.length > 1 ? text : (text[0] ?? '');
}
