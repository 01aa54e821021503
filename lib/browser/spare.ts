/**
 * A warm spare (issue 16): the next request's isolated page made while the browser is idle (no page loading or
 * capturing, nobody waiting), so that request starts at `goto` instead of paying for a context, a proxy and a
 * renderer (~50–150 ms of a ~400 ms capture here, more under load). What one spare is (a context and its proxy, or
 * in single-process mode a whole browser) is page.ts's business; this file only keeps at most one ready and never
 * shares it:
 * - `take` hands the ready spare to one caller and forgets it; a spare whose browser or page died is discarded
 *   there, never handed out;
 * - `claim` does the same, and when none is ready but one is being made, hands that one to this caller alone once
 *   it is ready (at most SPARE_CLAIM_MS): it began before the caller came, so it is ready sooner than a page the
 *   caller would start now, and two renderers are not started at once on the same CPU;
 * - a new one is made in the background (`refill`), never on a caller's clock: a caller that finds none ready or
 *   on its way makes its own page as without a spare;
 * - `close` stops refilling and discards the spare (and the one being made once it is ready), so a shutdown or
 *   a relaunch leaves no context or proxy behind.
 */
import { SPARE_CLAIM_MS } from '../time/limits.ts';

/** How a spare is made, checked, watched and thrown away. */
export interface SpareOps<T> {
  /** Makes one; rejects when it cannot (browser gone, shutting down). */
  make(): Promise<T>;
  /** Whether a ready spare can still be handed out: its browser and page alive. */
  usable(item: T): boolean;
  /** Calls `lost` when the spare's browser or page dies while it waits; the function returned stops watching. */
  watch(item: T, lost: () => void): () => void;
  /** Closes a spare that will never be handed out. */
  discard(item: T): Promise<void>;
}

/** After a spare could not be made, the next try waits this long, doubling up to the cap: no hot loop on a dead browser. */
const RETRY_MS = 250;
const RETRY_CAP_MS = 30_000;

export class Spare<T> {
  readonly #ops: SpareOps<T>;
  /** Whether a spare may be made now: a page slot free and nobody waiting for one. */
  readonly #idle: () => boolean;
  #ready: { item: T; unwatch: () => void } | undefined;
  #making: Promise<void> | undefined;
  /** The caller the spare being made is promised to (`claim`). */
  #claimant: ((item: T | undefined) => void) | undefined;
  #closed = false;
  #failures = 0;
  #retryAt = 0;

  constructor(ops: SpareOps<T>, idle: () => boolean) {
    this.#ops = ops;
    this.#idle = idle;
  }

  /** The ready spare, now, for this caller alone; undefined when none is ready. Starts making the next. */
  take(): T | undefined {
    const ready = this.#ready;
    this.#ready = undefined;
    if (ready === undefined) return undefined;
    ready.unwatch();
    const { item } = ready;
    if (!this.#ops.usable(item)) {
      void this.#ops.discard(item);
      return undefined;
    }
    this.refill();
    return item;
  }

  /**
   * The ready spare, or the one being made once it is ready, for this caller alone; undefined when there is none,
   * when it cannot be made, when another caller claimed it first, or when it is not ready within `waitMs`.
   */
  async claim(waitMs = SPARE_CLAIM_MS): Promise<T | undefined> {
    const ready = this.take();
    if (ready !== undefined || this.#making === undefined || this.#claimant !== undefined) return ready;
    let timer: NodeJS.Timeout | undefined;
    const claimed = new Promise<T | undefined>((resolve) => {
      this.#claimant = resolve;
      timer = setTimeout(() => {
        // Given up: the spare, once made, is kept for the next caller.
        if (this.#claimant === resolve) this.#claimant = undefined;
        resolve(undefined);
      }, waitMs);
    });
    const item = await claimed;
    clearTimeout(timer);
    return item;
  }

  /** Starts making a spare when there is none, none on the way, and the browser is idle. */
  refill(): void {
    if (this.#closed || this.#ready !== undefined || this.#making || Date.now() < this.#retryAt || !this.#idle()) return;
    this.#making = this.#make().then((item) => {
      this.#making = undefined;
      const claimant = this.#claimant;
      this.#claimant = undefined;
      if (item === undefined) return claimant?.(undefined);
      if (!claimant) return this.#keep(item);
      // Handed out as by `take`, and the next one begun.
      claimant(item);
      this.refill();
    });
  }

  /** Makes a spare now if one may be made, and resolves once it is ready (or could not be made). */
  async prepare(): Promise<void> {
    this.refill();
    await this.#making;
  }

  /** Stops refilling; resolves once the ready spare and the one being made are closed. */
  async close(): Promise<void> {
    this.#closed = true;
    const ready = this.#ready;
    this.#ready = undefined;
    ready?.unwatch();
    await Promise.all([ready === undefined ? undefined : this.#ops.discard(ready.item), this.#making]);
  }

  /** A new spare, or undefined when it could not be made or the keeper closed meanwhile (it is discarded then). */
  async #make(): Promise<T | undefined> {
    let item: T;
    try {
      item = await this.#ops.make();
    } catch {
      this.#failures += 1;
      this.#retryAt = Date.now() + Math.min(RETRY_CAP_MS, RETRY_MS * 2 ** (this.#failures - 1));
      return undefined;
    }
    this.#failures = 0;
    if (this.#closed) {
      await this.#ops.discard(item);
      return undefined;
    }
    return item;
  }

  /** Keeps `item` ready until it is taken, or discarded when it dies first. */
  #keep(item: T): void {
    // A spare that dies while it waits is closed at once (its proxy and context freed); the next caller's need
    // makes the next one, so a crashed browser is not relaunched for a spare nobody asked for.
    const ready = {
      item,
      unwatch: this.#ops.watch(item, () => {
        if (this.#ready !== ready) return;
        this.#ready = undefined;
        ready.unwatch();
        void this.#ops.discard(item);
      }),
    };
    this.#ready = ready;
  }
}
