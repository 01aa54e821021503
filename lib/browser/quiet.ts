/**
 * `waitUntil=auto`'s network quiet (docs/CONTRACT.md §2, docs/parameters.md "Network quiet"), counted from the network's own
 * events since navigation began rather than from the moment the wait starts. Puppeteer's waitForNetworkIdle
 * starts its quiet timer when it is called, after `load`, so a page whose last request ended with `load` still
 * waited the whole quiet time for nothing (issue 16). Here, after `load`, the page is settled once no request is
 * in flight and:
 * - AUTO_QUIET_MIN_MS have passed since `load` and since the network's last event (a request sent, answered,
 *   finished or failed): time for load handlers, zero-delay timers, the next frames and the intersection
 *   observers of lazy loaders to start what they start, and for the browser to report it;
 * - AUTO_IDLE_MS have passed since the last fetch or XHR was answered or ended: the page's own code acts on that
 *   data (parses it, renders, then asks for its images), which takes longer than the browser reacting to an image,
 *   a stylesheet or a script (a script runs as it arrives: what it asks for at once is in flight).
 * In flight is Puppeteer's count: from the request until its response, failure or end (a streamed body, a video,
 * does not hold the page). The whole wait ends AUTO_IDLE_CAP_MS after `load` at the latest.
 */
import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { AUTO_IDLE_CAP_MS, AUTO_IDLE_MS, AUTO_QUIET_MIN_MS } from '../time/limits.ts';

/** Answers that the page's own code reads, and may act on by asking for more. */
const DATA_TYPES: ReadonlySet<string> = new Set(['fetch', 'xhr', 'eventsource']);

export interface NetworkQuiet {
  /**
   * Resolves once the network is quiet by the rules above, counted from `loadAt` (a performance.now() time), or
   * AUTO_IDLE_CAP_MS after it, or after `capMs` when that is shorter (the request's budget).
   */
  settled(loadAt: number, capMs: number): Promise<void>;
  /** Stops listening to the page. */
  stop(): void;
}

/** Starts watching `page`'s requests; call before navigating, so that nothing the navigation sends is missed. */
export function watchNetwork(page: Page): NetworkQuiet {
  const inflight = new Set<HTTPRequest>();
  let lastEvent = performance.now();
  let lastData = Number.NEGATIVE_INFINITY;
  let changed: (() => void) | undefined;
  const seen = (request: HTTPRequest, ended: boolean): void => {
    const now = performance.now();
    lastEvent = now;
    if (DATA_TYPES.has(request.resourceType())) lastData = now;
    if (ended) inflight.delete(request);
    else inflight.add(request);
    changed?.();
  };
  const onRequest = (request: HTTPRequest): void => seen(request, false);
  const onResponse = (response: HTTPResponse): void => seen(response.request(), true);
  const onEnd = (request: HTTPRequest): void => seen(request, true);
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('requestfinished', onEnd);
  page.on('requestfailed', onEnd);
  const stop = (): void => {
    page.off('request', onRequest);
    page.off('response', onResponse);
    page.off('requestfinished', onEnd);
    page.off('requestfailed', onEnd);
  };

  const settled = (loadAt: number, capMs: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const deadline = Math.min(loadAt + AUTO_IDLE_CAP_MS, performance.now() + capMs);
      let timer: NodeJS.Timeout | undefined;
      const check = (): void => {
        clearTimeout(timer);
        const now = performance.now();
        const quietAt = Math.max(loadAt + AUTO_QUIET_MIN_MS, lastEvent + AUTO_QUIET_MIN_MS, lastData + AUTO_IDLE_MS);
        if (now >= deadline || (inflight.size === 0 && now >= quietAt)) {
          changed = undefined;
          resolve();
          return;
        }
        // With a request in flight only its end (an event) or the deadline can settle the page.
        timer = setTimeout(check, (inflight.size === 0 ? Math.min(quietAt, deadline) : deadline) - now);
      };
      changed = check;
      check();
    });

  return { settled, stop };
}
