/**
 * Which failed answers the result cache may keep, decided by error code in this one table (issue 10 item 1).
 * A failure is cached only when it describes the target — what any caller asking for this page would get right
 * now — and then only briefly. Failures born of one request's budget, of the service's load or of our own faults
 * say nothing about the page: caching them hands one caller's bad moment to the next caller.
 */
import type { ErrorCode } from '../errors.ts';

/**
 * - `target`: a fact about the target; kept `TARGET_FAILURE_TTL_MS` (never past the request's `ttl`), so a
 *   target that is down is not fetched again by every retry.
 * - `budget`: ran out of the request's time; another caller with more time may well succeed. Never kept, and a
 *   caller with a later deadline that joined the failed flight produces its own answer.
 * - `ours`: our own fault (storage, browser, a bug); never kept, so fixing it (or a restart) fixes the answers.
 * - `caller`: the caller's mistake; never kept, the next caller may ask correctly.
 */
export type FailureKind = 'target' | 'budget' | 'ours' | 'caller';

/** How long a failure describing the target is kept: long enough to absorb retries, short enough that a target
 *  back up is seen within a minute. */
export const TARGET_FAILURE_TTL_MS = 60_000;

const KINDS: Record<ErrorCode, FailureKind> = {
  // Unreachable: DNS, refused, reset, TLS — the state of the target's host right now.
  EFETCH: 'target',
  // The embedded URL answered a page, an error status or bytes that are no media: the same for every caller.
  ENOTMEDIA: 'target',
  // The target's own redirect chain is too long: the same for every caller.
  EMAXREDIRECTS: 'target',
  // The target's body is over the limit: the same for every caller (the limit is a deployment setting).
  ETOOLARGE: 'target',
  // Reached the cache only after the literal-address check, so it comes from DNS or a redirect hop: the name
  // resolves to (or redirects to) an address that is not public, which is a fact about the target.
  EFORBIDDENURL: 'target',
  // Reached the cache only after the target itself was checked, so a redirect led back to Glance: the same for
  // every caller. (A request that carries Glance's hop header is refused before the cache.)
  ELOOP: 'target',
  // The page's own renderer crashed (out of its heap cap, say): what this page does to any browser that loads it.
  EPAGECRASH: 'target',
  // The whole request's `timeout`: the caller's budget, or a busy service.
  ETIMEOUT: 'budget',
  // The browser's navigation ran out of its share of the budget, or the browser is overloaded.
  EBRWSRTIMEOUT: 'budget',
  // The element is waited for within the budget: a longer one may find it.
  ENOTFOUNDELEMENT: 'budget',
  // The service's load at this moment: a retry after `retry-after` may well be served.
  EBUSY: 'ours',
  // Storage, browser or anything unexpected: ours to fix, and fixed answers must show at once.
  EFATAL: 'ours',
  // Parameters, method and key: refused before any work, and the key of a corrected request differs anyway.
  EINVALURL: 'caller',
  EINVALQUERY: 'caller',
  EINVALTTL: 'caller',
  EINVALSTTL: 'caller',
  EINVALOVERLAYBG: 'caller',
  EINVALDATA: 'caller',
  EUNSUPPORTED: 'caller',
  EMETHOD: 'caller',
  EAUTH: 'caller',
  EFORBIDDENORIGIN: 'caller',
  // One caller's pace, answered at the edge before the cache is reached; never an answer about the page.
  ERATE: 'caller',
  // The range the caller chose runs past the printed document: a question of which pages to ask for.
  EPAGERANGE: 'caller',
  // The field the caller chose to embed is absent: a question of which field to ask for.
  EINVALEMBED: 'caller',
};

export const failureKind = (code: ErrorCode): FailureKind => KINDS[code];

/**
 * How long a failed answer may be kept (ms), 0 for never. Without a code (an answer this module cannot
 * classify, e.g. a 429 or 503 from a layer in front) it is never kept.
 */
export function failureLifetime(code: ErrorCode | undefined, ttl: number): number {
  return code !== undefined && KINDS[code] === 'target' ? Math.min(TARGET_FAILURE_TTL_MS, ttl) : 0;
}

/** A failure that a caller with more time might not get. */
export const isBudgetFailure = (code: ErrorCode | undefined): boolean => code !== undefined && KINDS[code] === 'budget';
