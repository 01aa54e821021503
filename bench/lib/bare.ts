/**
 * The baseline for screenshots: a bare puppeteer-core script with the same Chromium binary, the same flags
 * (the brief's list, plus the two of Glance's that change what is drawn or opened: --hide-scrollbars,
 * --mute-audio), the same viewport (1280×800 at 2×, Glance's default device), PNG, a new incognito context per
 * capture, and the waits Glance's `waitUntil=auto` does on a page that loads: `load`, then up to 750 ms for
 * 150 ms of network quiet. What it leaves out is what Glance adds: the guarded proxy, user agent and
 * reduced-motion emulation, the no-animation style sheet, the fonts/images settle, storing the image and the
 * HTTP/JSON round trip.
 */
import type { Browser } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';
import { findChromium } from '../../lib/browser/launch.ts';
import { BARE_CHROMIUM_ARGS } from '../../tests/helpers/browser.ts';

/** Glance's own two cosmetic flags on top of the bare ones, so both draw the same pixels. */
export const BARE_ARGS = [...BARE_CHROMIUM_ARGS, '--hide-scrollbars', '--mute-audio'];
export const VIEWPORT: Viewport = { width: 1280, height: 800, deviceScaleFactor: 2 };

export interface Viewport {
  readonly width: number;
  readonly height: number;
  readonly deviceScaleFactor: number;
}

export interface Bare {
  browser: Browser;
  /** The device every capture is made with. */
  viewport: Viewport;
  capture(url: string, options?: { fullPage?: boolean }): Promise<Buffer>;
  close(): Promise<void>;
}

export async function launchBare(viewport: Viewport = VIEWPORT): Promise<Bare> {
  const path = findChromium(undefined);
  const browser = await puppeteer.launch({
    executablePath: path,
    headless: path.includes('headless-shell') ? 'shell' : true,
    args: BARE_ARGS,
    pipe: true,
    defaultViewport: null,
  });

  async function shoot(url: string, fullPage: boolean): Promise<Buffer> {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.setViewport(viewport);
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForNetworkIdle({ idleTime: 150, timeout: 750 }).catch(() => undefined);
      return Buffer.from(await page.screenshot({ type: 'png', fullPage }));
    } finally {
      await context.close();
    }
  }

  return {
    browser,
    viewport,
    capture: (url, { fullPage = false } = {}) => shoot(url, fullPage),
    close: () => browser.close(),
  };
}
