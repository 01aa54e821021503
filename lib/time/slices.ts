/**
 * Long work on the main thread in slices: a loop over a page's bytes or characters asks `pause()` after each step,
 * which gives the event loop back once the loop has held it for HOLD_MS, so a 10 MB page delays other requests by a
 * few milliseconds at a time rather than by its whole length, and stops there when the request's signal has fired.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** How long the loop may be held before a yield. */
export const HOLD_MS = 8;

/** A `pause` for one loop: resolves at once while the loop has held the event loop under HOLD_MS. */
export function slices(signal?: AbortSignal): () => Promise<void> | undefined {
  let held = performance.now();
  return () => {
    if (performance.now() - held < HOLD_MS) return undefined;
    return yieldToLoop().then(() => {
      signal?.throwIfAborted();
      held = performance.now();
    });
  };
}
