/**
 * The stored form of one cached answer: a line of versioned JSON (status, headers, times, a SHA-256 of the body), then
 * the body as it is. A partial write, a flipped byte or an entry written by an older format reads back as "absent" (a
 * miss), never as a wrong answer. The body is not a JSON string inside the entry: escaping a 4 MB answer again, and
 * parsing it back on a hit, held the event loop ~20 ms each way (version 1 did).
 */
import { createHash } from 'node:crypto';
import { piecesOf } from '../text/pieces.ts';
import { slices } from '../time/slices.ts';
import type { CacheEntry } from './index.ts';

const VERSION = 2;

const KEY = /^[0-9a-f]{64}$/;

/** Only keys cacheKey could have made reach the disk or the bucket (no `/`, no `..`). */
export const isCacheKey = (key: string): boolean => KEY.test(key);

/** The file (local) or object name (under the S3 prefix) of an entry. */
export const entryName = (key: string): string => `${key}.json`;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Characters of the body hashed or written at a time. */
const PIECE = 64 * 1024;

/**
 * The entry in pieces, to be written one after another: the head line, then the body a piece at a time. Hashing and
 * encoding a 4 MB answer in one go held the event loop ~30 ms; here the loop is given back between pieces.
 */
export async function encodeEntry(entry: CacheEntry): Promise<string[]> {
  const { answer, createdAt, ttl } = entry;
  const pieces = [...piecesOf(answer.body, PIECE)];
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

/** undefined for anything that is not, byte for byte, an entry this version wrote. */
export function decodeEntry(text: string): CacheEntry | undefined {
  const end = text.indexOf('\n');
  if (end < 0) return undefined;
  const stored = parse(text.slice(0, end));
  if (!isRecord(stored) || stored.v !== VERSION) return undefined;
  const body = text.slice(end + 1);
  const { createdAt, ttl, statusCode, headers, sha256: sum, base64 } = stored;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined;
  if (typeof ttl !== 'number' || !(ttl > 0) || !Number.isFinite(ttl)) return undefined;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    return undefined;
  }
  if (!isStringRecord(headers) || sum !== sha256(body)) return undefined;
  if (base64 !== undefined && base64 !== true) return undefined;
  const answer = { statusCode, headers: { ...headers }, body, ...(base64 ? { isBase64Encoded: true } : {}) };
  return { answer, createdAt, ttl };
}
