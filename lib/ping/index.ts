/**
 * `ping` (docs/CONTRACT.md §4): every URL-valued media field is checked and enriched from what its server sends.
 * Each field walks its candidates in order and keeps the first reachable one; all fields (and the candidates
 * a slow one makes us try) probe at once, a few at a time, so a request's ping time is about its slowest
 * probe rather than their sum.
 */
import type { MediaField } from '../data/fields.ts';
import type { Budget } from '../time/budget.ts';
import { FINAL_HOP } from '../guard/loop.ts';
import { mediaFromUrl, type MediaObject } from '../media/object.ts';
import type { PingCache } from './cache.ts';
import { HEDGE_AFTER_MS } from '../time/limits.ts';
import { Semaphore } from '../time/semaphore.ts';
import { probeOutcome, type ProbeDeps, type ProbeOutcome } from './probe.ts';

export { PingCache, type PingCacheOptions } from './cache.ts';
export { probe } from './probe.ts';

export interface PingDeps extends ProbeDeps {
  cache?: PingCache;
}

/** Probes of one call running at once; more wait for a slot. */
const CONCURRENCY = 16;
/**
 * Candidates tried per field, best first; the rest are dropped, never queued (issue 11 item 2). Pages declare one
 * to four images and a handful of icons; a field whose first 8 are all dead has no live one worth the requests.
 */
export const MAX_CANDIDATES = 8;
/**
 * A candidate still unanswered after HEDGE_AFTER_MS has the next HEDGE_WIDTH candidates of its field probed beside it.
 * Most probes answer within it, so the common case costs no extra request; a field whose first candidates are dead
 * or slow then costs about one slow probe per HEDGE_WIDTH + 1 candidates instead of one per candidate
 * (bench/ping), while a slow but live first candidate costs at most HEDGE_WIDTH extra requests. Order still
 * decides: a later candidate's answer is used only if every earlier one fails.
 */
const HEDGE_WIDTH = 3;

async function firstReachable(urls: readonly string[], probeUrl: (url: string) => Promise<MediaObject | null>): Promise<MediaObject | null> {
  const started: Array<Promise<MediaObject | null>> = [];
  const start = (index: number): Promise<MediaObject | null> => (started[index] ??= probeUrl(urls[index]!));
  const startNext = (from: number) => {
    for (let index = from; index < Math.min(urls.length, from + HEDGE_WIDTH); index++) void start(index);
  };
  for (let index = 0; index < urls.length; index++) {
    const hedge = index + 1 < urls.length ? setTimeout(() => startNext(index + 1), HEDGE_AFTER_MS) : undefined;
    const media = await start(index);
    clearTimeout(hedge);
    if (media) return media;
  }
  return null;
}

/**
 * For each field given, the first of its candidates that answers 2xx from a public address, as an enriched media
 * object (`{url, type, size, size_pretty, width?, height?, duration?, duration_pretty?}`), or null when none
 * does. A field whose flag is false is not requested at all: its first candidate as extracted, typed by its
 * extension. Resolves within `budget`; each URL also has its own deadline (URL_TIME_LIMIT_MS).
 */
export async function pingMedia(
  candidates: Partial<Record<MediaField, string[]>>,
  flags: Record<MediaField, boolean>,
  budget: Budget,
  deps: PingDeps,
): Promise<Partial<Record<MediaField, MediaObject | null>>> {
  // Surplus probes wait for a slot (the Semaphore's default): each is cheap to hold back and has its own deadline.
  const slots = new Semaphore(CONCURRENCY);
  const probeUrl = (field: MediaField) => async (url: string): Promise<MediaObject | null> => {
    // Decided before the cache, which keys by hop: a Glance embed address is reachable with `1` and refused with `2`.
    const hop = deps.outbound?.mediaHop(deps.hop ?? FINAL_HOP) ?? deps.hop ?? FINAL_HOP;
    const run = (): Promise<ProbeOutcome> => slots.run(() => probeOutcome(url, field, budget, { ...deps, hop }));
    const shared = deps.cache ? deps.cache.through(`${field} ${hop} ${url}`, run) : run().then((outcome) => outcome.media);
    try {
      // A shared in-flight probe may have started with a longer budget than this request's.
      const media = await budget.race(shared, () => null);
      // Cached objects are shared between requests; each caller gets its own to extend.
      return media && { ...media };
    } catch {
      return null;
    }
  };
  const fields = Object.entries(candidates) as Array<[MediaField, string[] | undefined]>;
  const answers = await Promise.all(
    fields.map(async ([field, urls = []]): Promise<[MediaField, MediaObject | null]> => {
      if (!flags[field]) return [field, urls[0] ? mediaFromUrl(urls[0]) : null];
      return [field, await firstReachable(urls.slice(0, MAX_CANDIDATES), probeUrl(field))];
    }),
  );
  return Object.fromEntries(answers);
}
