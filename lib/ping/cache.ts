/**
 * Ping results by field and URL, in process, for a few minutes (docs/CONTRACT.md §4.6): every request for a page pings
 * its media again, and every page of a site pings the same logo. A failure lives shorter, as a dead URL may
 * come back. Entries are bounded, the least recently used leaving first, and concurrent lookups of one key
 * share one probe. One cache serves one address policy (the process's), which is why the key omits it.
 */
import type { MediaObject } from '../media/object.ts';
import type { ProbeOutcome } from './probe.ts';

export interface PingCacheOptions {
  /** Life of a reachable answer. Default 5 minutes. */
  ttlMs?: number;
  /** Life of an unreachable answer, at most ttlMs. Default 1 minute. */
  failureTtlMs?: number;
  /** Default 5000. */
  maxEntries?: number;
  clock?: () => number;
}

interface Entry {
  promise: Promise<MediaObject | null>;
  /** Infinity while the probe is in flight. */
  expires: number;
}

export class PingCache {
  readonly #ttlMs: number;
  readonly #failureTtlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  /** Map order is recency order: a hit moves its key to the end, eviction takes from the front. */
  readonly #entries = new Map<string, Entry>();

  constructor(options: PingCacheOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#failureTtlMs = Math.min(options.failureTtlMs ?? 60_000, this.#ttlMs);
    this.#maxEntries = options.maxEntries ?? 5000;
    this.#clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached or in-flight answer for `key`; otherwise `run`'s, kept unless it is not lasting. */
  through(key: string, run: () => Promise<ProbeOutcome>): Promise<MediaObject | null> {
    const hit = this.#entries.get(key);
    this.#entries.delete(key);
    if (hit && hit.expires > this.#clock()) {
      this.#entries.set(key, hit);
      return hit.promise;
    }
    const entry: Entry = { promise: Promise.resolve(null), expires: Infinity };
    entry.promise = run().then(
      (outcome) => {
        if (outcome.lasting) entry.expires = this.#clock() + (outcome.media ? this.#ttlMs : this.#failureTtlMs);
        else this.#forget(key, entry);
        return outcome.media;
      },
      (error: unknown) => {
        this.#forget(key, entry);
        throw error;
      },
    );
    this.#entries.set(key, entry);
    // An evicted in-flight probe still answers those already waiting on it.
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
    return entry.promise;
  }

  #forget(key: string, entry: Entry): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
  }
}
