/**
 * The whole cache policy in one place (docs/CONTRACT.md §2 `ttl`, `staleTtl`, `force`; §3 `x-cache-status`).
 *
 * - HIT: an entry younger than its lifetime (and than `staleTtl`, when set).
 * - STALE: older than `staleTtl` but within its lifetime: answered at once, and one background refresh asked for.
 * - MISS: nothing usable stored (absent, expired, unreadable): produced, stored, answered.
 * - BYPASS: `force`: produced and stored without reading.
 *
 * An entry's lifetime is the shorter of the `ttl` it was stored with and the `ttl` the request asks for, so a
 * caller asking for fresher data never gets older data than it allowed.
 *
 * What is stored (decided by the answer's HTTP status):
 * - below 400 (JSON, embed text, embed 302): for `ttl`.
 * - 4xx: never; the caller's mistake says nothing about the page, and the next caller may ask correctly.
 * - 5xx (the target unreachable, timeouts, our failures): for `failureTtlMs` (60 s) at most, so a target that is
 *   down is not hammered by every retry, and only where nothing better is stored: a failed `force` or refresh
 *   leaves the previous good entry in place. A stored failure is never served stale.
 *
 * Concurrent requests for one key that need a new answer share one `produce` (single flight per process). The
 * store failing is logged and treated as a miss (read) or ignored (write): the cache never fails a request.
 */
import type { CacheEntry, CachedAnswer, CacheStore } from './index.ts';
import type { Refresh, RefreshRequest } from './refresh.ts';

export type CacheStatus = 'MISS' | 'HIT' | 'STALE' | 'BYPASS';

export interface CachePolicy {
  /** ms */
  readonly ttl: number;
  /** ms, or false for no stale serving */
  readonly staleTtl: number | false;
  readonly force: boolean;
}

export interface CacheOutcome {
  readonly answer: CachedAnswer;
  readonly status: CacheStatus;
  /** How long, from when it was made, the answer may be reused (ms); 0 when it must not be. */
  readonly ttl: number;
  /** ms since the answer was made. */
  readonly age: number;
  /** From when (age, ms) the answer is served stale while refreshing; false when it never is. */
  readonly staleTtl: number | false;
}

export interface CacheErrorContext {
  readonly key: string;
  readonly action: 'read' | 'store' | 'refresh';
}

export interface ResultCacheOptions {
  /** Starts a background refresh of a stale key (refresh.ts, lambda-refresh.ts). */
  readonly refresh: Refresh;
  readonly now?: () => number;
  /** How long a 5xx answer is kept, ms (default 60 s). */
  readonly failureTtlMs?: number;
  /** Where store and refresh failures are reported; they never reach the caller. */
  readonly onError?: (error: unknown, context: CacheErrorContext) => void;
}

export const DEFAULT_FAILURE_TTL_MS = 60_000;

interface Made {
  readonly answer: CachedAnswer;
  readonly createdAt: number;
  /** The lifetime it was given; 0 when it is not to be reused. */
  readonly ttl: number;
}

const isFailure = (answer: CachedAnswer): boolean => answer.statusCode >= 500;

export class ResultCache {
  readonly #store: CacheStore | undefined;
  readonly #refresh: Refresh;
  readonly #now: () => number;
  readonly #failureTtl: number;
  readonly #onError: ResultCacheOptions['onError'];
  readonly #flights = new Map<string, Promise<Made>>();

  /** `store` undefined: caching is off; answers are still produced once per key at a time. */
  constructor(store: CacheStore | undefined, options: ResultCacheOptions) {
    this.#store = store;
    this.#refresh = options.refresh;
    this.#now = options.now ?? Date.now;
    this.#failureTtl = options.failureTtlMs ?? DEFAULT_FAILURE_TTL_MS;
    this.#onError = options.onError;
  }

  /**
   * `produce` makes the answer from scratch; it is called at most once per key at a time, possibly after this
   * call returns (a stale refresh), so it must not depend on anything that ends with the request. `request` is
   * what a refresh in another process needs to regenerate the key.
   */
  async answer(
    key: string,
    policy: CachePolicy,
    produce: () => Promise<CachedAnswer>,
    request: RefreshRequest,
  ): Promise<CacheOutcome> {
    if (policy.force) return this.#fresh(key, policy, produce, 'BYPASS', false);
    const entry = await this.#read(key);
    const age = entry ? Math.max(0, this.#now() - entry.createdAt) : 0;
    if (entry) {
      const ttl = Math.min(entry.ttl, policy.ttl);
      if (age < ttl) {
        const staleTtl = isFailure(entry.answer) ? false : policy.staleTtl;
        const status = staleTtl !== false && age >= staleTtl ? 'STALE' : 'HIT';
        if (status === 'STALE') await this.#askRefresh(key, policy, produce, request);
        return { answer: entry.answer, status, ttl, age, staleTtl };
      }
    }
    // Too old for this request (a shorter `ttl`) may still be good for others: a failure must not replace it.
    const goodForOthers = entry !== undefined && !isFailure(entry.answer) && age < entry.ttl;
    return this.#fresh(key, policy, produce, 'MISS', !goodForOthers);
  }

  async #read(key: string): Promise<CacheEntry | undefined> {
    if (!this.#store) return undefined;
    try {
      return await this.#store.get(key);
    } catch (error) {
      this.#onError?.(error, { key, action: 'read' });
      return undefined;
    }
  }

  async #askRefresh(key: string, policy: CachePolicy, produce: () => Promise<CachedAnswer>, request: RefreshRequest) {
    // Already being regenerated here: that flight stores the new answer.
    if (this.#flights.has(key)) return;
    const run = async () => void (await this.#made(key, policy, produce, false));
    try {
      await this.#refresh({ key, run, request });
    } catch (error) {
      this.#onError?.(error, { key, action: 'refresh' });
    }
  }

  async #fresh(
    key: string,
    policy: CachePolicy,
    produce: () => Promise<CachedAnswer>,
    status: CacheStatus,
    mayStoreFailure: boolean,
  ): Promise<CacheOutcome> {
    const made = await this.#made(key, policy, produce, mayStoreFailure);
    return {
      answer: made.answer,
      status,
      ttl: Math.min(made.ttl, policy.ttl),
      // Made for this request (or one joined in flight): only the store's write time has passed since.
      age: 0,
      staleTtl: isFailure(made.answer) ? false : policy.staleTtl,
    };
  }

  /** Produces and stores the key, or joins the production already running for it. */
  #made(key: string, policy: CachePolicy, produce: () => Promise<CachedAnswer>, mayStoreFailure: boolean) {
    let flight = this.#flights.get(key);
    if (!flight) {
      flight = this.#produce(key, policy, produce, mayStoreFailure).finally(() => this.#flights.delete(key));
      this.#flights.set(key, flight);
    }
    return flight;
  }

  async #produce(key: string, policy: CachePolicy, produce: () => Promise<CachedAnswer>, mayStoreFailure: boolean) {
    const answer = await produce();
    const createdAt = this.#now();
    const ttl = this.#lifetime(answer, policy, mayStoreFailure);
    if (this.#store && ttl > 0) {
      try {
        await this.#store.set(key, { answer, createdAt, ttl });
      } catch (error) {
        this.#onError?.(error, { key, action: 'store' });
      }
    }
    return { answer, createdAt, ttl };
  }

  #lifetime(answer: CachedAnswer, policy: CachePolicy, mayStoreFailure: boolean): number {
    if (answer.statusCode < 400) return policy.ttl;
    if (isFailure(answer) && mayStoreFailure) return Math.min(this.#failureTtl, policy.ttl);
    return 0;
  }
}
