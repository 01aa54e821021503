/**
 * One Chromium per process, launched on first need and kept for the next requests (warm Lambda invocations
 * reuse it). Concurrent first calls share one launch; a browser that crashed, was killed or disconnected is
 * replaced on the next call.
 */
import type { Browser } from 'puppeteer-core';
import type { Config } from '../config.ts';
import { GlanceError } from '../errors.ts';
import type { AddressPolicy } from '../guard/policy.ts';
import { capped } from '../time/capped.ts';
import { launchChromium } from './launch.ts';
import { startProxy, type GuardedProxy } from './proxy.ts';

export interface BrowserHostSettings {
  readonly chromium: Config['chromium'];
  readonly policy: AddressPolicy;
  readonly extraArgs?: readonly string[];
}

/** How long a polite close may take before the process is killed. */
const CLOSE_GRACE_MS = 2000;

interface Running {
  readonly browser: Browser;
  /** The default context's proxy: offline, since pages never run there (each gets a context and proxy). */
  readonly proxy: GuardedProxy;
}

export class BrowserHost {
  readonly #settings: BrowserHostSettings;
  #running: Promise<Running> | undefined;

  constructor(settings: BrowserHostSettings) {
    this.#settings = settings;
  }

  /** The running browser; launches one when there is none or the last one is gone. */
  async getBrowser(): Promise<Browser> {
    const running = (this.#running ??= this.#launch());
    const { browser } = await running;
    if (browser.connected) return browser;
    if (this.#running === running) this.#running = undefined;
    return this.getBrowser();
  }

  /** Forgets `browser` after an error that says it is gone, before its `disconnected` event has arrived. */
  discard(browser: Browser): void {
    void this.#running?.then((running) => {
      if (running.browser === browser) this.#stop(running);
    });
  }

  async closeBrowser(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    await this.#stop(await running.catch(() => undefined));
  }

  async #launch(): Promise<Running> {
    const proxy = await startProxy({ policy: this.#settings.policy, offline: true });
    let browser: Browser;
    try {
      browser = await launchChromium({ ...this.#settings, proxyUrl: proxy.url });
    } catch (error) {
      this.#running = undefined;
      await proxy.close();
      throw new GlanceError('EFATAL', `The browser could not start: ${(error as Error).message}`, { cause: error });
    }
    const running = { browser, proxy };
    browser.once('disconnected', () => void this.#stop(running));
    return running;
  }

  async #stop(running: Running | undefined): Promise<void> {
    if (!running) return;
    const current = this.#running;
    if (current && (await current.catch(() => undefined)) === running && this.#running === current) {
      this.#running = undefined;
    }
    const { browser, proxy } = running;
    if (browser.connected) await capped(browser.close().catch(() => undefined), CLOSE_GRACE_MS, undefined);
    // A browser whose connection died, or that would not close, may still be running: make sure it goes.
    browser.process()?.kill('SIGKILL');
    await proxy.close();
  }
}
