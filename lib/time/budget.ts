/**
 * One time budget per request, created when the request arrives and split into sub-budgets (browserless'
 * habit): every outbound call gets a deadline derived from it instead of a magic number of its own (the caps are
 * named in limits.ts). `race` is the one way to bound a promise by a deadline; `signal` (or `within`, for a wait
 * nothing else keeps alive) is the one way to tell an outbound call to stop. All end when the budget runs out or
 * when it is `abort`ed (the answer was sent, or the service is stopping), and a sub-budget ends with its parent.
 */
const ENDED = Symbol('ended');

export class Budget {
  readonly deadline: number;
  readonly #clock: () => number;
  readonly #parent: Budget | undefined;
  /** Set by `abort`, with its reason. */
  #ended: { reason: unknown } | undefined;
  /** Made only when something asks for a signal: a race on a cache hit needs none. */
  #controller: AbortController | undefined;
  /** The races and waits to end when this budget (or a parent, which holds them too) is aborted. */
  readonly #enders = new Set<() => void>();

  constructor(ms: number, clock: () => number = Date.now, deadline?: number, parent?: Budget) {
    this.#clock = clock;
    this.deadline = deadline ?? clock() + ms;
    this.#parent = parent;
  }

  /** A budget ending at an absolute time (epoch ms), e.g. `timeout` after the request arrived. */
  static until(deadline: number, clock: () => number = Date.now): Budget {
    return new Budget(0, clock, deadline);
  }

  /** Milliseconds left, never negative; none once aborted. */
  remaining(): number {
    if (this.aborted) return 0;
    return Math.max(0, this.deadline - this.#clock());
  }

  get expired(): boolean {
    return this.remaining() === 0;
  }

  get aborted(): boolean {
    return this.#ended !== undefined || (this.#parent?.aborted ?? false);
  }

  /**
   * A sub-budget of at most `ms`, ending no later than this budget's deadline less `reserve` (time kept back
   * for the work that follows, such as extraction and answering).
   */
  slice(ms: number = Infinity, reserve = 0): Budget {
    const end = Math.min(this.#clock() + ms, this.deadline - reserve);
    return new Budget(0, this.#clock, Math.max(this.#clock(), end), this);
  }

  /** Ends this budget (and its sub-budgets) now: their signals fire and their races give up. */
  abort(reason?: unknown): void {
    if (this.#ended) return;
    this.#ended = { reason };
    this.#controller?.abort(reason);
    for (const end of this.#enders) end();
  }

  /** An AbortSignal that fires when this budget runs out or is aborted (its own or a parent's). */
  signal(): AbortSignal {
    return AbortSignal.any([this.#aborts(), AbortSignal.timeout(Math.max(1, this.remaining()))]);
  }

  /**
   * `work`, or what `onExpired` gives once this budget ends first: a fallback value, or an error it throws.
   * The timer is always cleared, so a finished race keeps nothing alive; `work` itself goes on (a launch the
   * next request uses, say) unless the caller also passed it `signal()`.
   */
  async race<T, F = never>(work: Promise<T>, onExpired: () => F): Promise<T | F> {
    work.catch(() => undefined);
    if (this.expired) return onExpired();
    let stop: (() => void) | undefined;
    const ended = new Promise<typeof ENDED>((resolve) => (stop = this.#onEnd(() => resolve(ENDED))));
    try {
      const first = await Promise.race([work, ended]);
      return first === ENDED ? onExpired() : (first as T);
    } finally {
      stop?.();
    }
  }

  /**
   * Runs `work` with a signal that fires when this budget ends, for work that stops itself when told (leaving a
   * queue, say). Unlike `signal()`, whose timer never holds the process open, the timer here is held while `work`
   * runs, and only then: a wait that nothing else keeps alive still ends.
   */
  async within<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ended = new AbortController();
    const stop = this.#onEnd(() => ended.abort(new DOMException('The budget ran out.', 'TimeoutError')));
    try {
      return await work(ended.signal);
    } finally {
      stop();
    }
  }

  /** Calls `end` once this budget runs out or is aborted; the function returned clears the timer and the listener. */
  #onEnd(end: () => void): () => void {
    const timer = setTimeout(end, this.remaining());
    for (let budget: Budget | undefined = this; budget; budget = budget.#parent) budget.#enders.add(end);
    return () => {
      clearTimeout(timer);
      for (let budget: Budget | undefined = this; budget; budget = budget.#parent) budget.#enders.delete(end);
    };
  }

  /** Fires when this budget or one of its parents is aborted (not when time runs out). */
  #aborts(): AbortSignal {
    const own = this.#own().signal;
    return this.#parent ? AbortSignal.any([own, this.#parent.#aborts()]) : own;
  }

  #own(): AbortController {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#ended) this.#controller.abort(this.#ended.reason);
    }
    return this.#controller;
  }

  /** `work` bounded by `ms` alone, with a fallback: for best-effort steps (closing a context, waiting for fonts). */
  static cap<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
    return new Budget(ms).race(work, () => fallback);
  }
}
