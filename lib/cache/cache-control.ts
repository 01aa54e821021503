/**
 * The caching headers of an answer (docs/CONTRACT.md §3). `s-maxage` and `stale-while-revalidate` follow RFC 5861 so an
 * edge cache (CloudFront) behaves like ResultCache: fresh until `staleTtl`, then served stale while one request
 * revalidates, and never kept past `ttl` in all. Both count from now, not from when the answer was made, which is
 * why no `Age` header is sent alongside them. Failed answers (4xx, 5xx) are `no-store`: the edge keeps none.
 */
import { durationText } from '../time/duration-text.ts';
import type { CacheOutcome } from './result-cache.ts';

const seconds = (ms: number): number => Math.max(0, Math.floor(ms / 1000));

export interface CacheHeaderOptions {
  /**
   * false when the answer depends on something an edge cache does not key on (x-api-header-* request headers,
   * e.g. a cookie): then only the caller's own cache may keep it. Default true.
   */
  readonly shared?: boolean;
}

/** `x-cache-status`, `x-cache-ttl` (the answer's effective lifetime in ms, as Microlink echoes it),
 *  `x-cache-expired-at` (what is left of that lifetime, in Microlink's words: `23h 59m 58.5s`) and `cache-control`;
 *  they replace any the answer carries. */
export function cacheHeaders(outcome: CacheOutcome, { shared = true }: CacheHeaderOptions = {}): Record<string, string> {
  const headers: Record<string, string> = { 'x-cache-status': outcome.status };
  if (outcome.ttl <= 0) {
    headers['cache-control'] = 'no-store';
    return headers;
  }
  const remaining = Math.max(0, outcome.ttl - outcome.age);
  headers['x-cache-ttl'] = String(outcome.ttl);
  headers['x-cache-expired-at'] = durationText(remaining);
  // A failure is never kept at the edge, even one the result cache keeps for its minute (failure-policy.ts):
  // the result cache already spares the target the retries at the cost of one store read, and it forgets the
  // failure the moment a `force` or a refresh stores a success, which no edge copy would.
  if (outcome.answer.statusCode >= 400) {
    headers['cache-control'] = 'no-store';
    return headers;
  }
  if (!shared) {
    headers['cache-control'] = 'private, no-store';
    return headers;
  }
  if (outcome.staleTtl === false) {
    headers['cache-control'] = `public, max-age=0, s-maxage=${seconds(remaining)}`;
    return headers;
  }
  const fresh = Math.min(remaining, Math.max(0, outcome.staleTtl - outcome.age));
  headers['cache-control'] =
    `public, max-age=0, s-maxage=${seconds(fresh)}, stale-while-revalidate=${seconds(remaining - fresh)}`;
  return headers;
}
