/**
 * The one concurrency limiter in the codebase: at most `size` holders, the others wait first come first
 * served. By default every surplus caller waits (ping's probes: they are cheap to hold back and each has its
 * own deadline); `maxWaiting` bounds the line instead, for work whose callers are better answered at once
 * than late (browser pages, lib/browser/limiter.ts).
 */
export type Release = () => void;

export interface SemaphoreOptions {
  /** Callers that may wait for a slot; one more is refused with QueueFullError. Unbounded by default. */
  readonly maxWaiting?: number;
}

/** The line of waiters is full: the caller was not queued. */
export class QueueFullError extends Error {
  override name = 'QueueFullError';
}

interface Waiter {
  readonly take: (release: Release) => void;
}

export class Semaphore {
  readonly size: number;
  readonly #maxWaiting: number;
  #active = 0;
  readonly #waiting: Waiter[] = [];
  readonly #idle: Array<() => void> = [];

  constructor(size: number, { maxWaiting = Infinity }: SemaphoreOptions = {}) {
    if (!(size >= 1)) throw new RangeError(`A semaphore needs at least one slot, not ${size}.`);
    this.size = size;
    this.#maxWaiting = maxWaiting;
  }

  /** Slots held now. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * A slot: at once when one is free, else in turn. Rejects with QueueFullError, without waiting, when
   * `maxWaiting` callers already wait; with `signal.reason` when `signal` aborts before a slot comes (the caller
   * leaves the line and is never handed one). The function resolved gives the slot back; calling it again does
   * nothing.
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.size) {
      this.#active += 1;
      return Promise.resolve(this.#releaser());
    }
    if (this.#waiting.length >= this.#maxWaiting) {
      return Promise.reject(new QueueFullError(`All ${this.size} slots are held and ${this.#waiting.length} callers wait.`));
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal!.reason);
        this.#notifyIdle();
      };
      const waiter: Waiter = {
        take: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Runs `task` holding a slot, and gives it back however the task ends. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Resolves once no slot is held and nobody waits. */
  idle(): Promise<void> {
    if (this.#active === 0 && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter, so the count only drops when nobody waits.
      const next = this.#waiting.shift();
      if (next) next.take(this.#releaser());
      else this.#active -= 1;
      this.#notifyIdle();
    };
  }

  #notifyIdle(): void {
    if (this.#active > 0 || this.#waiting.length > 0) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
