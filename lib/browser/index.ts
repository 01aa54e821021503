/**
 * The browser module's one entry point: `createRenderer` loads a target in Chromium and captures what the
 * request asks for (html, screenshot, pdf). Import it dynamically: it is the only way into puppeteer.
 *
 * Budget: the request's budget bounds everything (queue, launch, page); loading and page actions stop short of
 * it by a capture reserve, so a slow page still leaves time to capture what loaded.
 */
import type { Browser } from 'puppeteer-core';
import type { Budget } from '../time/budget.ts';
import type { Config } from '../config.ts';
import { GlanceError } from '../errors.ts';
import type { Redirect } from '../fetch/index.ts';
import type { Resolver } from '../guard/lookup.ts';
import { DEFAULTS, type Options, type OverlayOptions, type ScreenshotOptions } from '../query/options.ts';
import { checkSelectors, prepare, settle } from './actions.ts';
import { adblocker, enableAdblock } from './adblock.ts';
import { codeLanguage, showCode } from './code.ts';
import { BrowserHost } from './browser.ts';
import { printPdf, screenshot, type Screenshot } from './capture.ts';
import { clampViewport, resolveDevice } from './devices.ts';
import { evaluateAll } from './evaluate.ts';
import { browserTimeout } from './errors.ts';
import { Limiter } from './limiter.ts';
import { navigate } from './navigate.ts';
import { applyOverlay, imageFetcher, type OverlayDeps } from './overlay.ts';
import { withPage, type OpenPage, type PageEnv, type PageSetup } from './page.ts';

export { FULL_PAGE_MAX_PIXELS, ELEMENT_WAIT_MS } from './capture.ts';
export { resolveDevice, deviceNames } from './devices.ts';

export interface RenderRequest {
  url: URL;
  options: Options;
  budget: Budget;
  /** `evaluate` sources of custom data rules, run after the html capture. */
  capture: { screenshot: boolean; pdf: boolean; html: boolean; evaluate?: readonly string[] };
}

export interface RenderResult {
  url: string;
  statusCode: number | null;
  headers: Record<string, string>;
  redirects: Redirect[];
  /** page.content() after loading and page actions, when capture.html. */
  html?: string;
  /** Per `capture.evaluate` source, its JSON result (undefined when it gave none). */
  evaluated?: Map<string, unknown>;
  screenshot?: Screenshot;
  pdf?: { body: Buffer };
  /** What the page asked for and the address rules refused (URLs, or host:port for https/wss tunnels). */
  refused: string[];
  /** Milliseconds: queue, launch, open, navigate, actions, capture. */
  timings: Record<string, number>;
}

export interface RendererDeps {
  config: Config;
  resolver?: Resolver | undefined;
  /** Extra Chromium flags (tests: `--host-resolver-rules=…` keeps Chromium's own DNS off the network). */
  extraArgs?: readonly string[] | undefined;
}

export interface Renderer {
  render(request: RenderRequest): Promise<RenderResult>;
  /** The running browser (launching it if needed); for tests and diagnostics. */
  getBrowser(): Promise<Browser>;
  /** Stops: new renders get EBUSY at once, admitted ones finish, then the browser closes. No relaunch after. */
  close(): Promise<void>;
}

/** Pages rendering at once: one per core of a 2-vCPU Lambda; more only queue for CPU. */
const MAX_PAGES = 2;
/** Kept back from loading and page actions for the capture: at most this, and at most this share of the budget. */
const CAPTURE_RESERVE_MS = 3000;
const CAPTURE_RESERVE_SHARE = 0.3;

const DEFAULT_SCREENSHOT: ScreenshotOptions = {
  type: DEFAULTS.screenshot.type,
  quality: DEFAULTS.screenshot.quality,
  fullPage: false,
  element: undefined,
  omitBackground: false,
  overlay: undefined,
  codeScheme: DEFAULTS.screenshot.codeScheme,
};

function selectorsOf(options: Options, shot: ScreenshotOptions | undefined): Array<[string, string]> {
  return [
    ...(options.waitForSelector ? [['waitForSelector', options.waitForSelector] as [string, string]] : []),
    ...options.click.map((selector): [string, string] => ['click', selector]),
    ...options.scroll.map((selector): [string, string] => ['scroll', selector]),
    ...(shot?.element ? [['screenshot.element', shot.element] as [string, string]] : []),
  ];
}

export function createRenderer({ config, resolver, extraArgs }: RendererDeps): Renderer {
  const host = new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs, maxPages: config.browserMaxPages });
  const env: PageEnv = { host, policy: config.policy, resolver };
  const limiter = new Limiter(MAX_PAGES);

  async function render({ url, options, budget, capture }: RenderRequest): Promise<RenderResult> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new GlanceError('EINVALURL', `Only http(s) pages can be rendered, not ${url.protocol} addresses.`);
    }
    const timings: Record<string, number> = {};
    let last = performance.now();
    const lap = (name: string): void => {
      const now = performance.now();
      timings[name] = Math.round(now - last);
      last = now;
    };
    const shot = capture.screenshot ? options.screenshot || DEFAULT_SCREENSHOT : undefined;
    const emulation = await resolveDevice(options.device, options.viewport);
    const setup: PageSetup = {
      viewport: emulation.viewport,
      userAgent: emulation.userAgent ?? config.userAgent,
      colorScheme: options.colorScheme,
      mediaType: options.mediaType,
      javascript: options.javascript,
      reducedMotion: !options.animations,
      headers: options.headers,
    };
    // The engine is built once per process; its first build overlaps the queue and the launch.
    if (options.adblock) void adblocker().catch(() => undefined);
    const release = await limiter.acquire(budget);
    try {
      lap('queue');
      // A dedicated browser (single-process mode) is launched with the page, within withPage's deadline.
      if (!host.dedicated) {
        await budget.race(host.getBrowser(), () => {
          throw browserTimeout(url.href, 'while starting, before loading', budget.remaining());
        });
        lap('launch');
      }
      return await withPage(env, budget, setup, async (open) => {
        open.subject = url.href;
        lap('open');
        await checkSelectors(open.page, selectorsOf(options, shot));
        if (options.adblock) await enableAdblock(open.page);
        const wantsCapture = capture.screenshot || capture.pdf;
        const reserve = wantsCapture ? Math.min(CAPTURE_RESERVE_MS, budget.remaining() * CAPTURE_RESERVE_SHARE) : 0;
        const loading = budget.slice(Infinity, reserve);
        const navigation = await navigate(open, url, options.waitUntil, loading);
        lap('navigate');
        await prepare(open, options, loading);
        lap('actions');
        const result: RenderResult = { ...navigation, refused: [], timings };
        if (capture.html) result.html = await open.page.content();
        if (capture.evaluate?.length) result.evaluated = await evaluateAll(open.page, capture.evaluate, budget);
        const language = shot && !shot.element ? codeLanguage(navigation.headers['content-type']) : undefined;
        if (shot && language) await showCode(open, language, shot.codeScheme, budget);
        if (shot) {
          const captured = await screenshot(open, shot, emulation.viewport, budget);
          result.screenshot = shot.overlay ? await frame(open, captured, shot.overlay, shot.quality, budget) : captured;
        }
        if (capture.pdf) result.pdf = await printPdf(open, options.pdf || pdfDefaults(), budget);
        lap('capture');
        result.refused = open.proxy.refused.map((failure) => failure.target);
        return result;
      });
    } finally {
      release();
    }
  }

  /** The overlay (lib/browser/overlay.ts), drawn in the capture's own page: no second page, context or proxy. */
  async function frame(open: OpenPage, capture: Screenshot, overlay: OverlayOptions, quality: number, budget: Budget): Promise<Screenshot> {
    const fetchImage = imageFetcher({
      policy: config.policy,
      budget,
      userAgent: config.userAgent,
      maxBytes: config.maxBodyBytes,
      resolver,
    });
    const renderHtml: OverlayDeps['renderHtml'] = async (html, viewport, options) => {
      const { page } = open;
      open.phase = 'while drawing the overlay';
      // The overlay document is inert (its CSP allows data: images only); a page with scripts off draws it too.
      await page.setJavaScriptEnabled(true);
      await page.goto('about:blank', { timeout: Math.max(1, budget.remaining()) });
      await page.setViewport(clampViewport({ ...viewport, isMobile: false, hasTouch: false, isLandscape: false }));
      await page.setContent(html, { waitUntil: 'load', timeout: Math.max(1, budget.remaining()) });
      await settle(open, 0, viewport.height, budget);
      const { type, quality, omitBackground = false } = options;
      return Buffer.from(await page.screenshot({ type, omitBackground, ...(type === 'jpeg' && quality !== undefined ? { quality } : {}) }));
    };
    const framed = await applyOverlay(capture, overlay, capture.deviceScaleFactor, quality, { renderHtml, fetchImage });
    return { ...framed, deviceScaleFactor: 1 };
  }

  // Graceful: nothing new is admitted or launched; what was admitted finishes, then the browser closes.
  const close = (): Promise<void> => host.shutdown(limiter.close());
  return { render, getBrowser: () => host.getBrowser(), close };
}

/** Microlink's pdf defaults, for a render asked for a PDF without pdf options (docs/CONTRACT.md §2). */
function pdfDefaults() {
  const margin = DEFAULTS.pdf.margin;
  return {
    format: DEFAULTS.pdf.format,
    margin: { top: margin, right: margin, bottom: margin, left: margin },
    scale: DEFAULTS.pdf.scale,
    landscape: false,
    pageRanges: undefined,
    printBackground: DEFAULTS.pdf.printBackground,
  };
}
