/**
 * Header handling both transports share: request header names in lower case (RFC 9110 §5.1: they are
 * case-insensitive; API Gateway passes them as the client sent them), and the CORS and security headers on every
 * answer.
 */
import { CORS_HEADERS } from './cors.ts';
import { PLAYER_HEADERS, PLAYER_POLICY, SECURITY_HEADERS } from './security-headers.ts';
import type { ApiResponse } from './types.ts';

type Headers = Readonly<Record<string, string | undefined>>;

const UPPER = /[A-Z]/;

/** The same object when every name is already lower case (node:http's own headers: the cache-hit path). */
export function lowerCaseNames(headers: Headers): Headers {
  if (!Object.keys(headers).some((name) => UPPER.test(name))) return headers;
  const lower: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}

/**
 * What an API answer depends on besides its address (RFC 9110 §12.5.5), for a cache that keeps it: the key where keys
 * are required (a shared cache must not hand a keyed caller's answer to a caller without one), and at the bare
 * address `Accept` (a browser's navigation gets the playground page there). Not `Origin`: CORS answers `*` to all.
 * Not `Accept-Encoding`: Glance does not compress (CloudFront does, and says so itself).
 */
export function varyOf(rawQueryString: string, keyed: boolean): string | undefined {
  const names = [...(rawQueryString === '' ? ['accept'] : []), ...(keyed ? ['x-api-key'] : [])];
  return names.length ? names.join(', ') : undefined;
}

/**
 * Every answer, errors included, carries both sets (the preflight carries CORS alone: lib/http/cors.ts), the
 * player its framable variant. A page of Glance's own (the playground) brings its own `policy` for the API's
 * Content-Security-Policy, which would stop it from running at all.
 */
export function withStandardHeaders(response: ApiResponse, policy?: string): ApiResponse {
  // The player (lib/embed/player.ts) is the one answer that may be framed: it says so by its own sandbox.
  const player = response.headers['content-security-policy'] === PLAYER_POLICY;
  response.headers = { ...response.headers, ...CORS_HEADERS, ...(player ? PLAYER_HEADERS : SECURITY_HEADERS) };
  if (policy) response.headers['content-security-policy'] = policy;
  return response;
}
