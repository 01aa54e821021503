/**
 * Bounded fan-out (issue 11 item 2): one answer may make at most OUTBOUND_LIMITS.total requests, and at most
 * OUTBOUND_LIMITS.perHost to one host, whatever the page names, so a page listing 20 000 images cannot turn one
 * request into 20 000 against a third party. Every exchange counts (each redirect hop, each ranged read); answers
 * from the ping cache do not, as they send nothing. Past a limit the request is not made: the surplus is dropped,
 * never queued, and what needed it (a ping, an oEmbed endpoint) counts as unreachable.
 */
import { GlanceError } from '../errors.ts';
import { FINAL_HOP, hostOf, type Hop } from './loop.ts';

export interface OutboundLimits {
  /** Requests one answer may send, all hosts together. */
  readonly total: number;
  /** Requests one answer may send to one host name. */
  readonly perHost: number;
}

/**
 * A page and its redirects (11), four media fields of 8 candidates each with a ranged read or two, an oEmbed
 * endpoint: a real page needs 10–30; 100 leaves room and still bounds a hostile one. One host gets 40, so a page
 * cannot spend the whole allowance on one victim.
 */
export const OUTBOUND_LIMITS: OutboundLimits = Object.freeze({ total: 100, perHost: 40 });

/**
 * Media probes of one answer that may carry hop `1` (lib/guard/loop.ts), each of which a Glance answers with a full
 * nested request: the page's image and one more is what an og:image at a Glance embed address needs; a page naming
 * 40 of them must not turn one request into 40 renders. Later probes carry FINAL_HOP and a Glance refuses them.
 */
export const NESTED_PROBES = 2;

/** A request not made because the answer's allowance is spent: not a fact about the URL, so never cached as one. */
export class OutboundLimitError extends GlanceError {
  constructor(url: URL, limit: string) {
    super('EFETCH', `${url.href} was not requested: this answer reached Glance's limit of ${limit}.`);
    this.name = 'OutboundLimitError';
  }
}

/** One answer's allowance of outbound requests. */
export class Outbound {
  readonly #limits: OutboundLimits;
  readonly #byHost = new Map<string, number>();
  #total = 0;
  #nested = 0;

  constructor(limits: OutboundLimits = OUTBOUND_LIMITS) {
    this.#limits = limits;
  }

  /** Requests counted so far. */
  get sent(): number {
    return this.#total;
  }

  /** The hop mark for one more media probe that would carry `wanted`: `1` for the first NESTED_PROBES, then FINAL_HOP. */
  mediaHop(wanted: Hop): Hop {
    if (wanted === FINAL_HOP || this.#nested >= NESTED_PROBES) return FINAL_HOP;
    this.#nested += 1;
    return wanted;
  }

  /** Counts one request to `url`, or throws OutboundLimitError when a limit is reached (and counts nothing). */
  take(url: URL): void {
    const host = hostOf(url);
    const forHost = this.#byHost.get(host) ?? 0;
    if (this.#total >= this.#limits.total) throw new OutboundLimitError(url, `${this.#limits.total} outbound requests`);
    if (forHost >= this.#limits.perHost) throw new OutboundLimitError(url, `${this.#limits.perHost} requests to one host`);
    this.#total += 1;
    this.#byHost.set(host, forHost + 1);
  }
}
