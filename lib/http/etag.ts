/**
 * Entity tags and conditional requests (RFC 9110 §8.8.3, §13.1.2): an answer carries a strong validator of its
 * body, made once and kept with it in the cache, and a caller whose `If-None-Match` names it is answered
 * `304 Not Modified` without the body.
 */
import { createHash } from 'node:crypto';
import { allPieces, type Text } from '../text/pieces.ts';
import { slices } from '../time/slices.ts';
import type { ApiResponse } from './types.ts';

/** Characters hashed at a time: the event loop is given back between pieces (a 10 MB answer is ~20 ms of hashing). */
const PIECE = 64 * 1024;

/**
 * The SHA-256 of the body's text. Pieces never split a character, so this is the hash of the UTF-8 bytes sent; of
 * a base64 body (`embed.proxy`'s media), the hash of its base64, which changes exactly when the bytes do.
 */
export async function etagOf(body: Text): Promise<string> {
  const hash = createHash('sha256');
  const pause = slices();
  for (const piece of allPieces(body, PIECE)) {
    hash.update(piece);
    await pause();
  }
  return `"${hash.digest('base64url')}"`;
}

/**
 * The answer with its etag. Only a 200 has one: a redirect (`embed` of a URL) is not a representation to revalidate,
 * and a failure is never kept. An answer that has one already (from the cache) keeps it, unhashed again.
 */
export async function withEtag<Answer extends Pick<ApiResponse, 'statusCode' | 'headers' | 'body'>>(answer: Answer): Promise<Answer> {
  if (answer.statusCode !== 200 || answer.headers.etag !== undefined) return answer;
  return { ...answer, headers: { ...answer.headers, etag: await etagOf(answer.body) } };
}

const ENTITY_TAG = /(?:W\/)?"[^"]*"/g;

/** True when `If-None-Match` names `etag` or is `*`: the caller's copy is current. Weak comparison, as §13.1.2 says. */
export function isCurrent(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (ifNoneMatch === undefined || etag === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return (ifNoneMatch.match(ENTITY_TAG) ?? []).some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag);
}

/**
 * The 304 for an answer the caller holds: no body, and the answer's headers but its content type (§15.4.5: the
 * etag, vary and caching headers a 200 would carry, which update the caller's stored copy; no representation
 * metadata that describes a body not sent).
 */
export function notModified(answer: ApiResponse): ApiResponse {
  const { 'content-type': _type, ...headers } = answer.headers;
  return { statusCode: 304, headers, body: '' };
}
