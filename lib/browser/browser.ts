/**
 * One Chromium per process, launched on first need and kept for the next requests (warm Lambda invocations
 * reuse it). Concurrent first calls share one launch. The host heals and renews it:
 * - a browser that crashed, was killed or disconnected is replaced on the next call;
 * - a browser that stops answering (probe() fails UNHEALTHY_LIMIT times in a row) is killed and replaced;
 * - after `maxPages` pages it is retired: new pages go to a fresh browser, the old one closes when its last
 *   page does (Gotenberg's restart-after-N, without cutting in-flight work);
 * - once shutdown() has begun nothing is launched again; pages in flight finish, then every browser closes.
 * With `--single-process` (GLANCE_CHROMIUM_MODE=single) a browser has only its default context, so each lease
 * launches a browser of its own whose proxy is the page's, and closes it on release: the fresh profile is the
 * page's isolation, and a crash (which takes the whole browser in that mode) ends only that page.
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, CDPSession } from 'puppeteer-core';
import type { Config } from '../config.ts';
import { GlanceError } from '../errors.ts';
import type { AddressPolicy } from '../guard/policy.ts';
import { Budget } from '../time/budget.ts';
import { BROWSER_CLOSE_MS, PROBE_TIMEOUT_MS } from '../time/limits.ts';
import { recordCrashes } from './crash.ts';
import { isGone } from './errors.ts';
import { chromiumExecutable, launchChromium, sharedExecutable, type Executable } from './launch.ts';
import { shuttingDown } from './limiter.ts';
import { startProxy, type GuardedProxy } from './proxy.ts';
import { once } from 'node:events';

export interface BrowserHostSettings {
  readonly chromium: Config['chromium'];
  readonly policy: AddressPolicy;
  readonly extraArgs?: readonly string[];
  /** Pages a browser serves before it is replaced (GLANCE_BROWSER_MAX_PAGES). */
  readonly maxPages?: number;
  /** Finds (in Lambda: unpacks) the binary; by default as the settings' `chromium` says. Run once, for every launch. */
  readonly executable?: Executable;
}

/** Default pages per browser, as Gotenberg's CHROMIUM_RESTART_AFTER (100) order of magnitude, for Glance's lighter pages. */
export const DEFAULT_MAX_PAGES = 500;
/** Failed probes in a row that condemn a browser: one could be a CPU spike, two in a row a wedge. */
export const UNHEALTHY_LIMIT = 2;

/** A page's hold on a browser; `release` (once) when the page's context is closed. */
export interface Lease {
  readonly browser: Browser;
  /** The browser is this page's alone (single-process mode): the page opens in its default context. */
  readonly dedicated: boolean;
  /** Resolves once what the release stops (a dedicated or retired browser) has stopped. */
  release(): Promise<void>;
}

interface Running {
  readonly browser: Browser;
  /** The default context's proxy when pages get contexts of their own: offline, since no page runs there. */
  readonly proxy: GuardedProxy | undefined;
  /** Pages opened on it, ever. */
  pages: number;
  /** Pages open on it now. */
  leased: number;
  /** No new pages: replaced, and closed once `leased` reaches 0. */
  retired: boolean;
  /** Failed probes since the last answer. */
  failures: number;
  probing: Promise<boolean> | undefined;
  /** The probes' own CDP session on the browser target, opened by the first probe and kept for the next. */
  session: Promise<CDPSession> | undefined;
  stopped: Promise<void> | undefined;
}

export class BrowserHost {
  readonly #settings: BrowserHostSettings;
  readonly #maxPages: number;
  #running: Promise<Running> | undefined;
  /** Every browser not yet stopped: the current one and retired ones finishing their pages. */
  readonly #alive = new Set<Running>();
  #closing = false;
  /** Browsers closing now (a dedicated one closes after its page's release): shutdown waits for them too. */
  readonly #stopping = new Set<Promise<void>>();
  /** The same browsers, and those being launched: kill() ends them too. */
  readonly #closingNow = new Set<Browser>();
  readonly #launching = new Set<Promise<Browser>>();
  /** Set by kill(): a launch that completes after it is ended at once. */
  #killed = false;
  readonly #drained: Array<() => void> = [];
  readonly #executable: Executable;

  constructor(settings: BrowserHostSettings) {
    this.#settings = settings;
    this.#maxPages = settings.maxPages ?? DEFAULT_MAX_PAGES;
    this.#executable = sharedExecutable(settings.executable ?? (() => chromiumExecutable(settings.chromium)));
  }

  /** The running browser; launches one when there is none or the last one is gone (never once shutting down). */
  async getBrowser(): Promise<Browser> {
    return (await this.#current()).browser;
  }

  /** Whether each page gets a browser of its own (single-process mode). */
  get dedicated(): boolean {
    return this.#settings.chromium.processes === 'single';
  }

  /**
   * The browser for one more page, counted until `release`; retires the browser when it reaches `maxPages`.
   * `proxyUrl` is the page's proxy, which a dedicated browser is launched with.
   */
  async lease(proxyUrl: string): Promise<Lease> {
    const running = this.dedicated ? await this.#launchFor(proxyUrl) : await this.#current();
    running.pages += 1;
    running.leased += 1;
    if (running.pages >= this.#maxPages) this.#retire(running);
    let released = false;
    return {
      browser: running.browser,
      dedicated: this.dedicated,
      release: async () => {
        if (released) return;
        released = true;
        running.leased -= 1;
        const stopping = running.retired && running.leased === 0 ? this.#stop(running) : undefined;
        this.#checkDrained();
        await stopping;
      },
    };
  }

  /**
   * Asks `browser` a cheap question within PROBE_TIMEOUT_MS (concurrent callers share one probe). A browser
   * that fails UNHEALTHY_LIMIT probes in a row is killed: pages waiting on it fail at once and are retried on
   * a fresh one (page.ts). Resolves whether it answered.
   */
  probe(browser: Browser): Promise<boolean> {
    const running = [...this.#alive].find((candidate) => candidate.browser === browser);
    if (!running) return Promise.resolve(false);
    running.probing ??= Budget.cap(this.#ask(running), PROBE_TIMEOUT_MS, false).then((answered) => {
      running.probing = undefined;
      running.failures = answered ? 0 : running.failures + 1;
      if (running.failures >= UNHEALTHY_LIMIT) this.#kill(running);
      return answered;
    });
    return running.probing;
  }

  /**
   * One fresh round trip to the browser process. Not `browser.version()`: puppeteer asks Browser.getVersion once
   * and answers every later call from its cache, so a frozen browser would pass forever.
   */
  async #ask(running: Running): Promise<boolean> {
    let opening: Promise<CDPSession> | undefined;
    try {
      opening = running.session ??= running.browser.target().createCDPSession();
      await (await opening).send('Browser.getVersion');
      return true;
    } catch {
      // A session that failed (or whose browser went) is opened anew by the next probe.
      if (running.session === opening) running.session = undefined;
      return false;
    }
  }

  /** Forgets `browser` after an error that says it is gone, before its `disconnected` event has arrived. */
  discard(browser: Browser): void {
    for (const running of this.#alive) if (running.browser === browser) void this.#stop(running);
  }

  /** Whether `browser` was replaced (discarded, killed or disconnected) rather than still serving. */
  isGone(browser: Browser): boolean {
    return !browser.connected || ![...this.#alive].some((running) => running.browser === browser);
  }

  /**
   * Graceful stop: nothing is launched from now on; once `admitted` (the work already accepted) settles and the
   * pages in flight finish (each is bounded by its own budget), every browser closes.
   */
  async shutdown(admitted: Promise<void> = Promise.resolve()): Promise<void> {
    this.#closing = true;
    await admitted;
    await new Promise<void>((resolve) => {
      this.#drained.push(resolve);
      this.#checkDrained();
    });
    await Promise.all([...this.#alive].map((running) => this.#stop(running)));
    const pending = this.#running;
    if (pending) await pending.then((running) => this.#stop(running), () => undefined);
    await Promise.all(this.#stopping);
  }

  /**
   * Kills every browser now, one being launched included, and resolves once each process has exited and been reaped:
   * for a worker thread about to be ended, whose children nobody would reap after it. Nothing is launched after.
   */
  async kill(): Promise<void> {
    this.#closing = true;
    this.#killed = true;
    // Launches in flight (the shared browser's, or a dedicated one's in single-process mode) are waited for.
    const launched = await Promise.all([...this.#launching].map((launch) => launch.catch(() => undefined)));
    const browsers = new Set([...[...this.#alive].map((running) => running.browser), ...this.#closingNow, ...launched]);
    await Promise.all([...browsers].map((browser) => browser && reap(browser)));
  }

  /** Closes the browser now (pages in flight fail); the next call launches a new one. */
  async closeBrowser(): Promise<void> {
    await Promise.all([...this.#alive].map((running) => this.#stop(running)));
  }

  async #current(): Promise<Running> {
    if (this.#closing && !this.#running) throw shuttingDown();
    const pending = (this.#running ??= this.#launch());
    const running = await pending;
    if (running.browser.connected && !running.retired && this.#alive.has(running)) return running;
    if (this.#running === pending) this.#running = undefined;
    return this.#current();
  }

  async #launch(): Promise<Running> {
    const proxy = await startProxy({ policy: this.#settings.policy, offline: true });
    try {
      return await this.#start(proxy.url, proxy);
    } catch (error) {
      this.#running = undefined;
      await proxy.close();
      throw error;
    }
  }

  /** A browser for one page only: retired from the start, so the page's release closes it. */
  async #launchFor(proxyUrl: string): Promise<Running> {
    if (this.#closing) throw shuttingDown();
    const running = await this.#start(proxyUrl, undefined);
    running.retired = true;
    return running;
  }

  /**
   * A Chromium that died before its first answer ("Target closed" from puppeteer's first command) is started once
   * more: it served no page, so nothing is lost but a second. Measured with `--single-process`, under load: about one
   * start in 40 dies of SIGSEGV there (issue 26), which otherwise failed its page as "The browser could not start".
   */
  async #launchChromium(proxyUrl: string): Promise<Browser> {
    const start = () => launchChromium({ ...this.#settings, proxyUrl, executable: this.#executable });
    try {
      return await start();
    } catch (error) {
      if (this.#killed || !isGone(error)) throw error;
      return start();
    }
  }

  async #start(proxyUrl: string, proxy: GuardedProxy | undefined): Promise<Running> {
    if (this.#killed) throw shuttingDown();
    let browser: Browser;
    const launch = this.#launchChromium(proxyUrl);
    this.#launching.add(launch);
    try {
      browser = await launch;
    } catch (error) {
      throw new GlanceError('EFATAL', `The browser could not start: ${(error as Error).message}`, { cause: error });
    } finally {
      this.#launching.delete(launch);
    }
    if (this.#killed) {
      await reap(browser);
      throw shuttingDown();
    }
    const running: Running = { browser, proxy, pages: 0, leased: 0, retired: false, failures: 0, probing: undefined, session: undefined, stopped: undefined };
    // Its pages' renderers may be killed from outside, which only the browser's root session hears (crash.ts). A
    // dedicated browser's renderer is the browser itself: its page hears no more once it is gone.
    if (!this.dedicated) {
      running.session = this.#recordCrashes(browser);
      // A session that failed is the next probe's to meet (#ask opens another).
      running.session.catch(() => undefined);
    }
    this.#alive.add(running);
    browser.once('disconnected', () => void this.#stop(running));
    return running;
  }

  /** The probes' session, opened now so that crash.ts hears the browser's crashes from its first page on. */
  async #recordCrashes(browser: Browser): Promise<CDPSession> {
    const session = await browser.target().createCDPSession();
    recordCrashes(session);
    return session;
  }

  /** No more pages on `running`; the next page launches a fresh browser. Closed now if idle, else by its last page. */
  #retire(running: Running): void {
    running.retired = true;
    void this.#running?.then((current) => {
      if (current === running) this.#running = undefined;
    }, () => undefined);
    if (running.leased === 0) void this.#stop(running);
  }

  /** A wedged browser gets no polite close (it would not answer one): its processes are killed at once. */
  #kill(running: Running): void {
    const child = running.browser.process();
    if (child) killTree(child);
    void this.#stop(running);
  }

  #stop(running: Running): Promise<void> {
    if (running.stopped) return running.stopped;
    const stopped = (running.stopped = (async () => {
      running.retired = true;
      this.#alive.delete(running);
      this.#closingNow.add(running.browser);
      const current = this.#running;
      if (current && (await current.catch(() => undefined)) === running && this.#running === current) this.#running = undefined;
      const { browser, proxy } = running;
      if (browser.connected) await Budget.cap(browser.close().catch(() => undefined), BROWSER_CLOSE_MS, undefined);
      // A browser whose connection died, or that would not close, may still be running: make sure it goes.
      await reap(browser);
      this.#closingNow.delete(browser);
      await proxy?.close();
      this.#checkDrained();
    })());
    this.#stopping.add(stopped);
    void stopped.finally(() => this.#stopping.delete(stopped));
    return stopped;
  }

  #checkDrained(): void {
    if ([...this.#alive].some((running) => running.leased > 0)) return;
    for (const resolve of this.#drained.splice(0)) resolve();
  }
}

/**
 * SIGKILL to the browser's whole process group. Puppeteer starts Chromium detached, so it leads a group of its own
 * with its zygotes, renderers, GPU and network processes; killing the main process alone left those of a wedged
 * (stopped) browser behind, hundreds of MB (issue 26). The group outlives its leader, so this works after it exited.
 */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // No such group (already gone), or not its leader after all: the process itself, at least.
    child.kill('SIGKILL');
  }
}

/** Kills the browser's processes and resolves once its main one has exited (and so been reaped by Node). */
async function reap(browser: Browser): Promise<void> {
  const child = browser.process();
  if (!child) return;
  const running = child.exitCode === null && child.signalCode === null;
  const exited = running ? once(child, 'exit') : undefined;
  killTree(child);
  await exited;
}
