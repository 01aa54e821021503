/**
 * CORS for every answer, and the preflight answer to OPTIONS (the Fetch standard's CORS protocol). Any origin may
 * call the API: it is read-only, and a key, when required, travels in a header, never a cookie.
 */
import type { ApiResponse } from './types.ts';

/** Headers a browser script may read cross-origin (docs/CONTRACT.md §3: the x-* headers are exposed). */
const EXPOSED_HEADERS = [
  'x-request-id',
  'x-response-time',
  'x-cache-status',
  'x-cache-ttl',
  'x-cache-expired-at',
  'x-fetch-mode',
  'x-fetch-time',
  'server-timing',
  'etag',
  'x-rate-limit-limit',
  'x-rate-limit-remaining',
  'x-rate-limit-reset',
  'retry-after',
].join(', ');

export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-headers': 'x-api-key, content-type',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  // `*` with no credentials: the answer never depends on the caller's origin, so no `vary: origin` either.
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
  // A day: browsers cap it lower anyway (Chromium at 2 h), but it spares a preflight per request.
  'access-control-max-age': '86400',
});

/** OPTIONS is answered before the app runs: no key check, no query parsing, the CORS headers alone. */
export const preflight = (): ApiResponse => ({ statusCode: 204, headers: { ...CORS_HEADERS }, body: '' });
