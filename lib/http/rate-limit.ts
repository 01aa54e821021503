/**
 * The local service's optional per-client rate limit (GLANCE_RATE_LIMIT, GLANCE_RATE_LIMIT_WINDOW): so many requests
 * per window, counted per API key when the request carries a valid one, else per client address
 * (lib/http/client-address.ts); past it, `429 ERATE`. Every counted answer carries Microlink's headers
 * (`x-rate-limit-limit`, `-remaining`, `-reset` in UTC epoch seconds: https://microlink.io/docs/api/basics/rate-limit).
 *
 * Fixed windows aligned on the clock (a day's ends at midnight UTC), so every count ends at once: the table is
 * emptied when a window ends, and within one holds at most MAX_CLIENTS clients, the least recently seen forgotten
 * first. A stranger sending from many addresses cannot grow it without bound; at worst a forgotten client starts
 * its count again.
 */
import type { RateLimitSettings } from '../config.ts';
import { GlanceError } from '../errors.ts';
import { formatDuration } from '../query/duration.ts';

export const MAX_CLIENTS = 10_000;

export interface RateVerdict {
  readonly allowed: boolean;
  readonly limit: number;
  readonly windowMs: number;
  readonly remaining: number;
  /** UTC epoch seconds at which the window ends. */
  readonly reset: number;
  /** Seconds from now to the window's end, at least 1. */
  readonly retryAfter: number;
}

export interface RateLimiterOptions {
  readonly now?: () => number;
  readonly maxClients?: number;
}

export class RateLimiter {
  readonly #settings: RateLimitSettings;
  readonly #now: () => number;
  readonly #maxClients: number;
  readonly #counts = new Map<string, number>();
  #window = Number.NaN;

  constructor(settings: RateLimitSettings, { now = Date.now, maxClients = MAX_CLIENTS }: RateLimiterOptions = {}) {
    this.#settings = settings;
    this.#now = now;
    this.#maxClients = maxClients;
  }

  /** Counts one request of `client` (refused ones too: retrying early does not help) and judges it. */
  take(client: string): RateVerdict {
    const { limit, windowMs } = this.#settings;
    const now = this.#now();
    const window = Math.floor(now / windowMs);
    if (window !== this.#window) {
      this.#counts.clear();
      this.#window = window;
    }
    const count = (this.#counts.get(client) ?? 0) + 1;
    // Deleted and set again: the map's order is the order clients were last seen, oldest first.
    this.#counts.delete(client);
    if (this.#counts.size >= this.#maxClients) this.#counts.delete(this.#counts.keys().next().value as string);
    this.#counts.set(client, count);
    const end = (window + 1) * windowMs;
    return {
      allowed: count <= limit,
      limit,
      windowMs,
      remaining: Math.max(0, limit - count),
      reset: Math.ceil(end / 1000),
      retryAfter: Math.max(1, Math.ceil((end - now) / 1000)),
    };
  }
}

/** Who is counted: the valid API key the request carries, else its client address. */
export const clientOf = (validKey: string | undefined, address: string): string =>
  validKey !== undefined ? `key ${validKey}` : `address ${address}`;

/** Microlink's rate-limit headers; on a refusal also `retry-after` (RFC 9110 §10.2.3). */
export function rateHeaders(verdict: RateVerdict): Record<string, string> {
  const headers: Record<string, string> = {
    'x-rate-limit-limit': String(verdict.limit),
    'x-rate-limit-remaining': String(verdict.remaining),
    'x-rate-limit-reset': String(verdict.reset),
  };
  if (!verdict.allowed) headers['retry-after'] = String(verdict.retryAfter);
  return headers;
}

export const overLimit = ({ limit, windowMs, retryAfter }: RateVerdict): GlanceError =>
  new GlanceError('ERATE', `Too many requests from this client: its limit is ${limit} every ${formatDuration(windowMs)}. Retry in ${retryAfter} seconds.`);
