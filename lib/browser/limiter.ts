/**
 * Admission to the browser: at most `size` pages render at once (a page costs most of a core) and at most
 * `maxWaiting` requests wait, first come first served. A request that cannot be served in time is told so at
 * once with EBUSY (503 + retry-after) rather than failing late: the line is full, its budget cannot cover a
 * render, or the service is stopping. A waiter leaves the line while it still has MIN_RENDER_MS, so a slot is
 * never handed to a request that cannot use it.
 */
import type { Budget } from '../time/budget.ts';
import { MIN_RENDER_MS } from '../time/limits.ts';
import { GlanceError } from '../errors.ts';
import { QueueFullError, Semaphore, type Release } from '../time/semaphore.ts';

/** Requests that may wait for a page; a longer line would mostly wait to fail (a render takes ~1–3 s). */
export const MAX_WAITING = 8;

export const busy = (size: number, waiting: number): GlanceError =>
  new GlanceError('EBUSY', `The browser is busy: ${size} pages are rendering and ${waiting} requests are waiting. Retry shortly.`);

export const tooLittleTime = (remainingMs: number): GlanceError =>
  new GlanceError(
    'EBUSY',
    `Only ${remainingMs} ms of the request's budget were left for the browser, which needs at least ${MIN_RENDER_MS} ms: retry, or raise \`timeout\`.`,
  );

export const noPageInTime = (waitedMs: number): GlanceError =>
  new GlanceError('EBUSY', `The browser is busy: no page became free within ${waitedMs} ms. Retry shortly.`);

export const shuttingDown = (): GlanceError =>
  new GlanceError('EBUSY', 'This instance is shutting down and takes no new browser work. Retry: another instance will answer.');

export class Limiter {
  readonly #slots: Semaphore;
  #closing = false;

  constructor(size: number, { maxWaiting = MAX_WAITING }: { maxWaiting?: number } = {}) {
    this.#slots = new Semaphore(size, { maxWaiting });
  }

  /** A page slot for a request with `budget`, or EBUSY at once; the function returned gives it back (once). */
  async acquire(budget: Budget): Promise<Release> {
    if (this.#closing) throw shuttingDown();
    const remaining = budget.remaining();
    if (remaining < MIN_RENDER_MS) throw tooLittleTime(remaining);
    // Leave the line while a render still fits: the wait is the budget less a render, and ends with it (or its abort).
    const waitMs = remaining - MIN_RENDER_MS;
    try {
      const release = await budget.slice(Infinity, MIN_RENDER_MS).within((signal) => this.#slots.acquire(signal));
      if (budget.remaining() < MIN_RENDER_MS) {
        release();
        throw tooLittleTime(budget.remaining());
      }
      return release;
    } catch (error) {
      if (error instanceof QueueFullError) throw busy(this.#slots.size, this.#slots.waiting);
      if (error instanceof GlanceError) throw error;
      // The wait ran out, or the budget was aborted (the answer was sent).
      throw noPageInTime(waitMs);
    }
  }

  /**
   * Page slots free with nobody waiting for one (0 when closing): background work (the spares, spare.ts) takes no
   * one's turn.
   */
  get free(): number {
    return this.#closing || this.#slots.waiting > 0 ? 0 : this.#slots.size - this.#slots.active;
  }

  /**
   * Stops admitting (new requests get EBUSY) and resolves once the requests already admitted or waiting have
   * finished: they were accepted before the stop, so they are served.
   */
  close(): Promise<void> {
    this.#closing = true;
    return this.#slots.idle();
  }
}
