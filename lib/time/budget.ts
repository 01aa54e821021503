/**
 * One time budget per request, split into sub-budgets (browserless' habit): every outbound call gets a
 * deadline derived from the request's `timeout` instead of a magic number of its own.
 */
export class Budget {
  readonly deadline: number;
  readonly #clock: () => number;

  constructor(ms: number, clock: () => number = Date.now, deadline?: number) {
    this.#clock = clock;
    this.deadline = deadline ?? clock() + ms;
  }

  /** Milliseconds left, never negative. */
  remaining(): number {
    return Math.max(0, this.deadline - this.#clock());
  }

  get expired(): boolean {
    return this.remaining() === 0;
  }

  /**
   * A sub-budget of at most `ms`, ending no later than this budget's deadline less `reserve` (time kept back
   * for the work that follows, such as extraction and answering).
   */
  slice(ms: number = Infinity, reserve = 0): Budget {
    const end = Math.min(this.#clock() + ms, this.deadline - reserve);
    return new Budget(0, this.#clock, Math.max(this.#clock(), end));
  }

  /** An AbortSignal that fires when this budget runs out. */
  signal(): AbortSignal {
    return AbortSignal.timeout(Math.max(1, this.remaining()));
  }
}
