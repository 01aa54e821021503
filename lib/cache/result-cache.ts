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
 * What is stored is decided by the error code of a failed answer (failure-policy.ts), not its HTTP status:
 * - a success (below 400: JSON, embed text, embed 302): for `ttl`.
 * - a failure that describes the target (EFETCH, EMAXREDIRECTS, ETOOLARGE, EFORBIDDENURL, ENOTMEDIA): for 60 s at most
 *   (never past `ttl`), so a target that is down is not fetched by every retry, and only where no success is
 *   stored: a failed `force` or refresh leaves the good entry in place, and a miss whose new answer fails while a
 *   success is still within its own lifetime answers that success (STALE) instead, as RFC 5861 stale-if-error.
 *   A stored failure is never served stale.
 * - any other failure (timeouts, our own faults, caller errors): never.
 *
 * Concurrent requests for one key that need a new answer share one `produce` (single flight per process). A
 * flight that ends in a failure born of its budget (a timeout) does not bind a joiner whose own deadline is
 * later: that joiner produces again with its own budget. A request that arrives just after such a failure, for
 * the same key (so the same `timeout`) and with no more time than that flight had, gets that failure at once
 * instead of redoing the work: clients retry timeouts (@microlink/mql retries a 504 twice, `force` included),
 * and a retry given the same time would fail the same way, at the page's and the service's expense. The store
 * failing is logged and treated as a miss (read) or ignored (write): the cache never fails a request.
 */
import type { ErrorCode } from '../errors.ts';
import { failureLifetime, isBudgetFailure } from './failure-policy.ts';
import type { CacheEntry, CachedAnswer, CacheStore } from './index.ts';
import type { Refresh, RefreshRequest } from './refresh.ts';

export type CacheStatus = 'MISS' | 'HIT' | 'STALE' | 'BYPASS';

export interface CachePolicy {
  /** ms */
  readonly ttl: number;
  /** ms, or false for no stale serving */
  readonly staleTtl: number | false;
  readonly force: boolean;
  /** Epoch ms by which this request must be answered (its budget's end); Infinity when unbounded. */
  readonly deadline: number;
}

/** What `produce` makes: the answer and, when it is a failure, its error code (what decides its caching). */
export interface Produced {
  readonly answer: CachedAnswer;
  readonly error?: ErrorCode;
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
  /** Where store and refresh failures are reported; they never reach the caller. */
  readonly onError?: (error: unknown, context: CacheErrorContext) => void;
}

interface Made {
  readonly answer: CachedAnswer;
  readonly createdAt: number;
  /** The lifetime it was given; 0 when it is not to be reused. */
  readonly ttl: number;
  readonly error: ErrorCode | undefined;
}

interface Flight {
  readonly made: Promise<Made>;
  /** The deadline of the request whose budget the production runs on. */
  readonly deadline: number;
}

/** A flight that ran out of its time, kept briefly for the retries of the same request. */
interface RecentTimeout {
  readonly made: Made;
  readonly budget: number;
  readonly until: number;
}

/** How long a timed-out request's failure answers its retries: past @microlink/mql's two (0.3 s + 0.6 s apart). */
export const RETRY_WINDOW_MS = 10_000;
/** A retry's budget is measured a little later in its life than the flight's was: the same `timeout` within this. */
const RETRY_SLACK_MS = 1_000;
/** At most this many remembered, oldest forgotten first. */
const MAX_RECENT = 1_000;

/** Stored entries are successes or target failures; only a success is ever served past its freshness. */
const isFailure = (answer: CachedAnswer): boolean => answer.statusCode >= 400;

type Produce = () => Promise<Produced>;

export class ResultCache {
  readonly #store: CacheStore | undefined;
  readonly #refresh: Refresh;
  readonly #now: () => number;
  readonly #onError: ResultCacheOptions['onError'];
  readonly #flights = new Map<string, Flight>();
  readonly #recent = new Map<string, RecentTimeout>();

  /** `store` undefined: caching is off; answers are still produced once per key at a time. */
  constructor(store: CacheStore | undefined, options: ResultCacheOptions) {
    this.#store = store;
    this.#refresh = options.refresh;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError;
  }

  /**
   * `produce` makes the answer from scratch; it is called at most once per key at a time, possibly after this
   * call returns (a stale refresh), so it must not depend on anything that ends with the request. `request` is
   * what a refresh in another process needs to regenerate the key.
   */
  async answer(key: string, policy: CachePolicy, produce: Produce, request: RefreshRequest): Promise<CacheOutcome> {
    if (policy.force) return this.#fresh(key, policy, produce, 'BYPASS', undefined);
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
    // Too old for this request (a shorter `ttl`) may still be good for others: a failure must not replace it,
    // and is answered by it.
    const good = entry !== undefined && !isFailure(entry.answer) && age < entry.ttl ? entry : undefined;
    return this.#fresh(key, policy, produce, 'MISS', good);
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

  async #askRefresh(key: string, policy: CachePolicy, produce: Produce, request: RefreshRequest) {
    // Already being regenerated here: that flight stores the new answer.
    if (this.#flights.has(key)) return;
    const run = async () => void (await this.#made(key, policy, produce, false));
    try {
      await this.#refresh({ key, run, request });
    } catch (error) {
      this.#onError?.(error, { key, action: 'refresh' });
    }
  }

  /** `good`: a success still within its own lifetime, which a failure must neither replace nor beat. */
  async #fresh(key: string, policy: CachePolicy, produce: Produce, status: CacheStatus, good: CacheEntry | undefined): Promise<CacheOutcome> {
    const made = await this.#made(key, policy, produce, good === undefined && status !== 'BYPASS');
    if (good && made.error !== undefined) {
      const age = Math.max(0, this.#now() - good.createdAt);
      return { answer: good.answer, status: 'STALE', ttl: Math.min(good.ttl, policy.ttl), age, staleTtl: policy.staleTtl };
    }
    return {
      answer: made.answer,
      status,
      ttl: Math.min(made.ttl, policy.ttl),
      // Made for this request (or one joined in flight): only the store's write time has passed since.
      age: 0,
      staleTtl: made.error !== undefined ? false : policy.staleTtl,
    };
  }

  /**
   * Produces and stores the key, or joins the production already running for it. A joined flight that ran out
   * of its time is not this request's verdict when this request may run longer: it produces again, on its own
   * budget (and a flight started meanwhile by another request is joined under the same rule).
   */
  async #made(key: string, policy: CachePolicy, produce: Produce, mayStoreFailure: boolean): Promise<Made> {
    for (;;) {
      const joined = this.#flights.get(key);
      if (!joined) return this.#retried(key, policy) ?? this.#start(key, policy, produce, mayStoreFailure).made;
      const made = await joined.made;
      if (!(isBudgetFailure(made.error) && policy.deadline > joined.deadline)) return made;
    }
  }

  /** The failure of a flight that just ran out of a budget at least as long as this request's, if any. */
  #retried(key: string, policy: CachePolicy): Promise<Made> | undefined {
    const recent = this.#recent.get(key);
    if (!recent) return undefined;
    const now = this.#now();
    if (recent.until <= now) {
      this.#recent.delete(key);
      return undefined;
    }
    return policy.deadline - now <= recent.budget + RETRY_SLACK_MS ? Promise.resolve(recent.made) : undefined;
  }

  #start(key: string, policy: CachePolicy, produce: Produce, mayStoreFailure: boolean): Flight {
    const budget = policy.deadline - this.#now();
    const flight: Flight = {
      made: this.#produce(key, policy, produce, mayStoreFailure).then(
        (made) => {
          if (isBudgetFailure(made.error) && Number.isFinite(budget)) this.#remember(key, { made, budget, until: this.#now() + RETRY_WINDOW_MS });
          else this.#recent.delete(key);
          return made;
        },
      ).finally(() => {
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
      }),
      deadline: policy.deadline,
    };
    this.#flights.set(key, flight);
    return flight;
  }

  #remember(key: string, recent: RecentTimeout): void {
    this.#recent.delete(key);
    if (this.#recent.size >= MAX_RECENT) this.#recent.delete(this.#recent.keys().next().value as string);
    this.#recent.set(key, recent);
  }

  async #produce(key: string, policy: CachePolicy, produce: Produce, mayStoreFailure: boolean): Promise<Made> {
    const { answer, error } = await produce();
    const createdAt = this.#now();
    const ttl = this.#lifetime(answer, error, policy, mayStoreFailure);
    if (this.#store && ttl > 0) {
      try {
        await this.#store.set(key, { answer, createdAt, ttl });
      } catch (error) {
        this.#onError?.(error, { key, action: 'store' });
      }
    }
    return { answer, createdAt, ttl, error };
  }

  #lifetime(answer: CachedAnswer, error: ErrorCode | undefined, policy: CachePolicy, mayStoreFailure: boolean): number {
    if (error === undefined) return answer.statusCode < 400 ? policy.ttl : 0;
    return mayStoreFailure ? failureLifetime(error, policy.ttl) : 0;
  }
}
