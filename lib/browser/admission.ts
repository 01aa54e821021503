/**
 * Admission to the browser's pages: the page slots and their queue (limiter.ts), the warm spares and their pacing
 * (spare.ts), the warm-up ahead of the first requests and the graceful close. Every page job — a render, a Lighthouse
 * report — gets its page through `onPage`; what it does there is its own business.
 */
import type { Budget } from '../time/budget.ts';
import { GlanceError } from '../errors.ts';
import type { BrowserHost } from './browser.ts';
import { browserTimeout } from './errors.ts';
import { Limiter } from './limiter.ts';
import { spareOps, withPage, type OpenPage, type Opened, type PageEnv, type PageSetup } from './page.ts';
import { Spare } from './spare.ts';

/** Pages rendering at once: one per core of a 2-vCPU Lambda; more only queue for CPU. */
export const MAX_PAGES = 2;

export interface AdmissionDeps {
  readonly host: BrowserHost;
  /** The pages' environment, without a spare: admission adds its own. */
  readonly env: PageEnv;
  /** Whether the process is frozen once an answer is sent (Lambda): pages close before their answer then. */
  readonly frozenAfterAnswer: boolean;
  /** Spare pages kept (GLANCE_BROWSER_SPARE): primed with `usualSetup` when given. */
  readonly spare: boolean;
  /** The page setup of a request that leaves every option at its default. */
  readonly usualSetup?: (() => Promise<PageSetup>) | undefined;
}

/** Marks each stage of a page job's time (queue, launch, open…). */
export type Lap = (name: string) => void;

export class Admission {
  readonly #host: BrowserHost;
  readonly #env: PageEnv;
  readonly #limiter = new Limiter(MAX_PAGES);
  readonly #spare: Spare<Opened> | undefined;
  /**
   * Where the process runs on after an answer (the local service), a page closes after it. In Lambda the environment
   * is frozen once the handler returns, so a close left for later would resume mid-way on the next invocation's
   * clock, its Chromium held through the freeze: there the page closes before the answer.
   */
  readonly #closeAfterAnswer: boolean;
  /** Pages loading or capturing now (withPage's work, not yet answered); a page closing after its answer is not. */
  #rendering = 0;
  /** Captures being encoded or composed after their page's work (`finishing`): CPU the spares must not take. */
  #finishing = 0;
  /** Pages answered and still closing (withPage's `closing`): warm() and close() wait for them. */
  readonly #closing = new Set<Promise<void>>();

  constructor({ host, env, frozenAfterAnswer, spare, usualSetup }: AdmissionDeps) {
    this.#host = host;
    this.#closeAfterAnswer = !frozenAfterAnswer;
    // Made only while no page loads or captures and no capture is being encoded, one per free slot with nobody waiting
    // for one, so they never delay a request that could start now, nor slow one running: on two cores a renderer started
    // beside a capture costs that capture about what the spare saves the next request (bench/RESULTS.md, issue 16). One per slot lets requests
    // arriving together all start at `goto`; in Lambda an instance serves one request at a time, so one is enough.
    const room = (): number =>
      this.#rendering > 0 || this.#finishing > 0 ? 0 : frozenAfterAnswer ? Math.min(1, this.#limiter.free) : this.#limiter.free;
    this.#spare = spare ? new Spare(spareOps(env, usualSetup), room) : undefined;
    this.#env = { ...env, spare: this.#spare };
  }

  /**
   * A page slot, a running browser and a fresh guarded page for `fn`; `lap` marks each stage. `budget` bounds the
   * wait for a slot and the launch, `pageBudget` the page itself (by default the same). `fn`'s value is answered as
   * soon as it is done, and its slot is free then: the page's context and proxy close after it (closing takes
   * little CPU, no core), tracked for warm() and close() to wait for; in Lambda, before it.
   */
  async onPage<T>(url: URL, budget: Budget, setup: PageSetup, fn: (open: OpenPage) => Promise<T>, lap: Lap, pageBudget = budget): Promise<T> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new GlanceError('EINVALURL', `Only http(s) pages can be rendered, not ${url.protocol} addresses.`);
    }
    const release = await this.#limiter.acquire(budget);
    this.#rendering += 1;
    let closed: Promise<void> | undefined;
    try {
      lap('queue');
      // A dedicated browser (single-process mode) is launched with the page, within withPage's deadline.
      if (!this.#host.dedicated) {
        await budget.race(this.#host.getBrowser(), () => {
          throw browserTimeout(url.href, 'while starting, before loading', budget.remaining());
        });
        lap('launch');
      }
      const work = async (open: OpenPage): Promise<T> => {
        open.subject = url.href;
        lap('open');
        return fn(open);
      };
      return await withPage(this.#env, pageBudget, setup, work, this.#closeAfterAnswer ? (closing) => (closed = closing) : undefined);
    } finally {
      this.#rendering -= 1;
      release();
      this.#spare?.refill();
      if (closed) this.#track(closed);
    }
  }

  /** Marks a capture being encoded or composed after its page's work; the function answered ends the mark (once). */
  finishing(): () => void {
    this.#finishing += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#finishing -= 1;
      this.#spare?.refill();
    };
  }

  /**
   * Starts the browser and makes the spare pages; resolves once all are ready. Pages still closing after their answer
   * are waited for first: spares are made only when no page renders. Failures are left for the first request to meet.
   */
  async warm(): Promise<void> {
    try {
      if (!this.#host.dedicated) await this.#host.getBrowser();
      await Promise.all(this.#closing);
      await this.#spare?.prepare();
    } catch {
      // The first request launches again and reports what went wrong, with its own request id.
    }
  }

  /**
   * Graceful: nothing new is admitted or launched, the spare is closed; what was admitted finishes, then the browser
   * closes. The spare holds a lease on the browser, which the shutdown would otherwise wait for.
   */
  async close(): Promise<void> {
    // Each admitted page adds its close to `closing` as it answers, before its slot is free.
    const admitted = this.#limiter.close().then(() => Promise.all(this.#closing)).then(() => undefined);
    await Promise.all([this.#spare?.close(), this.#host.shutdown(admitted)]);
  }

  #track(closed: Promise<void>): void {
    const done: Promise<void> = closed.catch(() => undefined).finally(() => {
      this.#closing.delete(done);
      this.#spare?.refill();
    });
    this.#closing.add(done);
  }
}
