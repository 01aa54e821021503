/**
 * Warm spares (issue 16): the next requests' isolated pages made while the browser is idle (no page loading or
 * capturing, nobody waiting), so that a request starts at `goto` instead of paying for a context, a proxy and a
 * renderer (~50–150 ms of a ~400 ms capture here, more under load). What one spare is (a context and its proxy, or
 * in single-process mode a whole browser) is page.ts's business; this file only keeps at most `room()` ready (one
 * per free page slot: requests arriving together each start at `goto`) and never shares one:
 * - `take` hands a ready spare to one caller and forgets it; a spare whose browser or page died is discarded
 *   there, never handed out;
 * - `claim` does the same, and when none is ready but one is being made, hands that one to this caller alone once
 *   it is ready (at most SPARE_CLAIM_MS): it began before the caller came, so it is ready sooner than a page the
 *   caller would start now, and two renderers are not started at once on the same CPU;
 * - new ones are made in the background (`refill`), one at a time, never on a caller's clock: a caller that finds
 *   none ready or on its way makes its own page as without a spare;
 * - `close` stops refilling and discards the spares (and the one being made once it is ready), so a shutdown or
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
  /** How many spares may be kept now: the free page slots while the browser is idle, none while it is not. */
  readonly #room: () => number;
  readonly #ready: Array<{ item: T; unwatch: () => void }> = [];
  #making: Promise<void> | undefined;
  /** The caller the spare being made is promised to (`claim`). */
  #claimant: ((item: T | undefined) => void) | undefined;
  #closed = false;
  #failures = 0;
  #retryAt = 0;

  constructor(ops: SpareOps<T>, room: () => number) {
    this.#ops = ops;
    this.#room = room;
  }

  /** A ready spare, now, for this caller alone; undefined when none is ready. Starts making the next. */
  take(): T | undefined {
    for (let ready = this.#ready.shift(); ready !== undefined; ready = this.#ready.shift()) {
      ready.unwatch();
      if (this.#ops.usable(ready.item)) {
        this.refill();
        return ready.item;
      }
      void this.#ops.discard(ready.item);
    }
    return undefined;
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

  /** Starts making a spare when none is on the way and there is room for one more (see `room`). */
  refill(): void {
    if (this.#closed || this.#making || Date.now() < this.#retryAt || this.#ready.length >= this.#room()) return;
    this.#making = this.#make().then((item) => {
      this.#making = undefined;
      const claimant = this.#claimant;
      this.#claimant = undefined;
      // A close that came after the making ended but before this turn: the spare goes, and close waits for it.
      if (item !== undefined && this.#closed) {
        claimant?.(undefined);
        return this.#ops.discard(item);
      }
      if (item === undefined) return claimant?.(undefined);
      // Handed out as by `take`, or kept; either way the next one begun if there is room.
      if (claimant) claimant(item);
      else if (!this.#keep(item)) return;
      this.refill();
    });
  }

  /** Makes spares now while there is room, and resolves once they are ready (or could not be made). */
  async prepare(): Promise<void> {
    this.refill();
    while (this.#making) await this.#making;
  }

  /** Stops refilling; resolves once the ready spares and the one being made are closed. */
  async close(): Promise<void> {
    this.#closed = true;
    const ready = this.#ready.splice(0);
    for (const { unwatch } of ready) unwatch();
    await Promise.all([...ready.map(({ item }) => this.#ops.discard(item)), this.#making]);
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

  /** Keeps `item` ready until it is taken, or discarded when it dies first; false when it was dead already. */
  #keep(item: T): boolean {
    // A spare that dies while it waits is closed at once (its proxy and context freed); the next caller's need
    // makes the next one, so a crashed browser is not relaunched for a spare nobody asked for. One that died before
    // it could be watched would otherwise hold its room until taken.
    if (!this.#ops.usable(item)) {
      void this.#ops.discard(item);
      return false;
    }
    const ready = {
      item,
      unwatch: this.#ops.watch(item, () => {
        const at = this.#ready.indexOf(ready);
        if (at < 0) return;
        this.#ready.splice(at, 1);
        ready.unwatch();
        void this.#ops.discard(item);
      }),
    };
    this.#ready.push(ready);
    return true;
  }
}
