/**
 * At most `size` pages render at once (a page costs most of a core); the others queue, first come first
 * served, and a request whose budget runs out while queued leaves the queue with EBRWSRTIMEOUT.
 */
import type { Budget } from '../time/budget.ts';
import { GlanceError } from '../errors.ts';

export class Limiter {
  readonly #size: number;
  #active = 0;
  readonly #queue: Array<() => void> = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Waits for a free slot within `budget`; the function returned gives it back (once). */
  async acquire(budget: Budget): Promise<() => void> {
    if (this.#active < this.#size) {
      this.#active += 1;
      return this.#releaser();
    }
    const waitedMs = budget.remaining();
    await new Promise<void>((resolve, reject) => {
      const take = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#queue.splice(this.#queue.indexOf(take), 1);
        reject(new GlanceError('EBRWSRTIMEOUT', `No browser page became free within the ${waitedMs} ms budget: the service is busy.`));
      }, Math.max(1, waitedMs));
      this.#queue.push(take);
    });
    // The slot was handed over by its releaser, so the active count is unchanged.
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) next();
      else this.#active -= 1;
    };
  }
}
