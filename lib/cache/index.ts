/**
 * The result cache: whole answers (status, headers, body) kept per normalised request, with Microlink's `ttl`,
 * `staleTtl` and `force` semantics (result-cache.ts). Stored in a private S3 bucket when deployed, in a local
 * folder on one machine (the wiring chooses which: lib/stores.ts); both stores pass one contract suite
 * (tests/cache/contract.ts).
 */
import type { Text } from '../text/pieces.ts';

export { cacheHeaders, type CacheHeaderOptions } from './cache-control.ts';
export { cacheKey, nestedKey } from './key.ts';
export { createLocalRefresher, type LocalRefresher, type Refresh, type RefreshJob, type RefreshRequest } from './refresh.ts';
export { failureKind, TARGET_FAILURE_TTL_MS, type FailureKind } from './failure-policy.ts';
export {
  ResultCache,
  RETRY_WINDOW_MS,
  type CacheErrorContext,
  type CacheOutcome,
  type CachePolicy,
  type Produced,
  type CacheStatus,
  type ResultCacheOptions,
} from './result-cache.ts';

/** What the app answers, minus the per-request headers (request id, timings) it adds afterwards. */
export interface CachedAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Text;
  /** The body is bytes in base64 (`embed.proxy`'s media). */
  isBase64Encoded?: boolean;
}

export interface CacheEntry {
  answer: CachedAnswer;
  /** Epoch ms when the answer was made. */
  createdAt: number;
  /** ms the answer may be used for, from createdAt. */
  ttl: number;
}

export interface CacheStore {
  /** undefined when absent, and for an entry that is corrupted, truncated or of another format version (never
   *  served, never thrown). Throws EFATAL only when the store itself cannot be read. */
  get(key: string): Promise<CacheEntry | undefined>;
  /** Replaces the entry at once: a concurrent get sees the old or the new one. Throws EFATAL on failure. */
  set(key: string, entry: CacheEntry): Promise<void>;
  /** Deletes entries past the retention or their ttl, and the least recently used past the size bound, a bounded
   *  part per call (local folder; the bucket's lifecycle rule does this deployed). Resolves with the number deleted. */
  sweep?(): Promise<number>;
}
