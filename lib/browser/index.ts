/**
 * The browser module's one entry point: `createRenderer` loads a target in Chromium and captures what the
 * request asks for (html, screenshot, pdf). Import it dynamically: it is the only way into puppeteer.
 *
 * Budget: the request's budget bounds everything (queue, launch, page); loading and page actions stop short of
 * it by a capture reserve, so a slow page still leaves time to capture what loaded.
 */
import type { Browser } from 'puppeteer-core';
import { Budget } from '../time/budget.ts';
import type { WorkPool } from '../work/pool.ts';
import { CAPTURE_RESERVE_MS, CAPTURE_RESERVE_SHARE, CONSENT_MS } from '../time/limits.ts';
import type { Config } from '../config.ts';
import { GlanceError } from '../errors.ts';
import type { Redirect } from '../fetch/index.ts';
import type { Resolver } from '../guard/lookup.ts';
import type { Outbound } from '../guard/outbound.ts';
import type { Encoding } from '../media/encode.ts';
import { parseQuery } from '../query/index.ts';
import { DEFAULTS, type LighthouseOptions, type Options, type OverlayOptions, type ScreenshotOptions } from '../query/options.ts';
import { checkSelectors, prepare, settle, stopAnimations } from './actions.ts';
import { adblocker, enableAdblock } from './adblock.ts';
import { codeLanguage, showCode } from './code.ts';
import { consentScript, watchConsent } from './consent.ts';
import { BrowserHost } from './browser.ts';
import { checkWebpViewport, framedViewport, printPdf, screenshot, type Screenshot } from './capture.ts';
import { clampViewport, resolveDevice } from './devices.ts';
import { evaluateAll } from './evaluate.ts';
import { browserTimeout } from './errors.ts';
import type { Emulation, LighthouseReport } from './lighthouse.ts';
import { loadPuppeteer } from './launch.ts';
import { Limiter } from './limiter.ts';
import { navigate } from './navigate.ts';
import { imageFetcher, prepareOverlay, type OverlayDeps } from './overlay.ts';
import { spareOps, withPage, type BrowserEvents, type OpenPage, type PageEnv, type PageSetup } from './page.ts';
import { Spare } from './spare.ts';
import { workerGuess } from '../work/charset.ts';

export { FULL_PAGE_MAX_PIXELS } from './capture.ts';
export { resolveDevice, deviceNames } from './devices.ts';
export type { BrowserEvents } from './page.ts';
export type { LighthouseReport } from './lighthouse.ts';

export interface RenderRequest {
  url: URL;
  options: Options;
  budget: Budget;
  /** `evaluate` sources of custom data rules, run after the html capture. */
  capture: { screenshot: boolean; pdf: boolean; html: boolean; evaluate?: readonly string[] };
  /** The answer's allowance of outbound requests, for what Glance itself fetches (the overlay's background). */
  outbound?: Outbound | undefined;
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
  /** Milliseconds: queue, launch, open, navigate, actions, capture (with an overlay: screenshot, overlay, capture). */
  timings: Record<string, number>;
}

export interface LighthouseRequest {
  url: URL;
  /** The request's options: its device, headers and page settings apply to the audited page. */
  options: Options;
  lighthouse: LighthouseOptions;
  /** The report's budget (the pipeline's cap for Lighthouse, within the request's). */
  budget: Budget;
}

export interface RendererDeps {
  config: Config;
  /** Where the adblock engine is parsed (lib/work/): seconds of CPU that must not hold the event loop. */
  work: WorkPool;
  resolver?: Resolver | undefined;
  /** Extra Chromium flags (tests: `--host-resolver-rules=…` keeps Chromium's own DNS off the network). */
  extraArgs?: readonly string[] | undefined;
  events?: BrowserEvents | undefined;
}

export interface Renderer {
  render(request: RenderRequest): Promise<RenderResult>;
  /** A Lighthouse report of the target (lib/browser/lighthouse.ts). */
  lighthouse(request: LighthouseRequest): Promise<LighthouseReport>;
  /** The running browser (launching it if needed); for tests and diagnostics. */
  getBrowser(): Promise<Browser>;
  /**
   * Starts the browser and makes the spare pages ahead of the first requests (GLANCE_BROWSER_AT_INIT, in Lambda's
   * init phase); resolves once all are ready. Pages still closing after their answer are waited for first: spares
   * are made only when no page renders. Failures are left for the first request to meet.
   */
  warm(): Promise<void>;
  /**
   * Loads what a first capture would otherwise load on its clock: puppeteer, the adblock engine and autoconsent's
   * script. Rejects when the engine cannot be loaded (a prebuilt one from another version, say).
   */
  prepare(): Promise<void>;
  /** Stops: new renders get EBUSY at once, admitted ones finish, then the browser closes. No relaunch after. */
  close(): Promise<void>;
  /** Kills the browser now and waits for its process to be reaped (a worker thread about to be ended). */
  kill(): Promise<void>;
}

/** Pages rendering at once: one per core of a 2-vCPU Lambda; more only queue for CPU. */
export const MAX_PAGES = 2;
/** Reports that may wait for the one running: each takes seconds, so a longer line would only wait to time out. */
const MAX_WAITING_AUDITS = 2;
/** Lighthouse's own wait for the page's load, as a share of the report's budget: the audits need the rest. */
const LIGHTHOUSE_LOAD_SHARE = 0.5;
/** A page that has painted nothing by this share of the budget gets Lighthouse's NO_FCP report, with time to write it. */
const LIGHTHOUSE_PAINT_SHARE = 0.3;
/** How long an abandoned report's page may stay open for Lighthouse to settle (its longest protocol timeout). */
const LIGHTHOUSE_SETTLE_MS = 30_000;

const DEFAULT_SCREENSHOT: ScreenshotOptions = {
  type: DEFAULTS.screenshot.type,
  quality: DEFAULTS.screenshot.quality,
  fullPage: false,
  element: undefined,
  omitBackground: false,
  optimizeForSpeed: false,
  overlay: undefined,
  codeScheme: DEFAULTS.screenshot.codeScheme,
  palette: false,
};

function selectorsOf(options: Options, shot: ScreenshotOptions | undefined): Array<[string, string]> {
  return [
    ...(options.waitForSelector ? [['waitForSelector', options.waitForSelector] as [string, string]] : []),
    ...options.click.map((selector): [string, string] => ['click', selector]),
    ...options.scroll.map((selector): [string, string] => ['scroll', selector]),
    ...(shot?.element ? [['screenshot.element', shot.element] as [string, string]] : []),
  ];
}

export function createRenderer({ config, work, resolver, extraArgs, events }: RendererDeps): Renderer {
  const host = new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs, maxPages: config.browserMaxPages });
  const limiter = new Limiter(MAX_PAGES);
  const base: PageEnv = { host, policy: config.policy, maxBodyBytes: config.maxBodyBytes, guess: workerGuess(work), resolver, events };
  /**
   * Where the process runs on after an answer (the local service), a page closes after it. In Lambda the environment
   * is frozen once the handler returns, so a close left for later would resume mid-way on the next invocation's
   * clock, its Chromium held through the freeze: there the page closes before the answer.
   */
  const closeAfterAnswer = config.lambda === undefined;
  /** Pages loading or capturing now (withPage's work, not yet answered); a page closing after its answer is not. */
  let rendering = 0;
  /** Captures being encoded or composed after their page's work (render's `composing`): CPU the spares must not take. */
  let finishing = 0;
  // Made only while no page loads or captures and no capture is being encoded, one per free slot with nobody waiting
  // for one, so they never delay a request that could start now, nor slow one running: on two cores a renderer started
  // beside a capture costs that capture about what the spare saves the next request (bench/RESULTS.md, issue 16). One per slot lets requests
  // arriving together all start at `goto`; in Lambda an instance serves one request at a time, so one is enough.
  const spareRoom = (): number => (rendering > 0 || finishing > 0 ? 0 : config.lambda === undefined ? limiter.free : Math.min(1, limiter.free));
  const spare = config.browserSpare ? new Spare(spareOps(base, usualSetup), spareRoom) : undefined;
  const env: PageEnv = { ...base, spare };
  const audits = new Limiter(1, { maxWaiting: MAX_WAITING_AUDITS });
  /** Pages answered and still closing (withPage's `closing`): warm() and close() wait for them. */
  const closing = new Set<Promise<void>>();

  /** The page settings of a request that leaves them all at their defaults: each spare is primed with them. */
  async function usualSetup(): Promise<PageSetup> {
    const target = new URL('https://example.com/');
    return (await pageSetup(parseQuery(`url=${encodeURIComponent(target.href)}`), target)).setup;
  }

  async function pageSetup(options: Options, url: URL): Promise<{ setup: PageSetup; emulation: Emulation }> {
    const resolved = await resolveDevice(options.device, options.viewport);
    const overlay = options.screenshot ? options.screenshot.overlay : undefined;
    const viewport = overlay ? framedViewport(resolved.viewport, overlay) : resolved.viewport;
    const emulation = { viewport, userAgent: resolved.userAgent ?? config.userAgent };
    const setup: PageSetup = {
      viewport: emulation.viewport,
      userAgent: emulation.userAgent,
      colorScheme: options.colorScheme,
      mediaType: options.mediaType,
      javascript: options.javascript,
      reducedMotion: !options.animations,
      headers: options.headers,
      // Caller credentials go to the target's origin only (lib/browser/intercept.ts).
      origin: url.origin,
    };
    return { setup, emulation };
  }

  /**
   * A page slot, a running browser and a fresh guarded page for `fn`; `lap` marks each stage. `budget` bounds the
   * wait for a slot and the launch, `pageBudget` the page itself (by default the same). `fn`'s value is answered as
   * soon as it is done, and its slot is free then: the page's context and proxy close after it (closing takes
   * little CPU, no core), tracked in `closing` for warm() and close() to wait for; in Lambda, before it.
   */
  async function onPage<T>(
    url: URL,
    budget: Budget,
    setup: PageSetup,
    fn: (open: OpenPage) => Promise<T>,
    lap: (name: string) => void,
    pageBudget = budget,
  ): Promise<T> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new GlanceError('EINVALURL', `Only http(s) pages can be rendered, not ${url.protocol} addresses.`);
    }
    const release = await limiter.acquire(budget);
    rendering += 1;
    let closed: Promise<void> | undefined;
    try {
      lap('queue');
      // A dedicated browser (single-process mode) is launched with the page, within withPage's deadline.
      if (!host.dedicated) {
        await budget.race(host.getBrowser(), () => {
          throw browserTimeout(url.href, 'while starting, before loading', budget.remaining());
        });
        lap('launch');
      }
      return await withPage(
        env,
        pageBudget,
        setup,
        async (open) => {
          open.subject = url.href;
          lap('open');
          return fn(open);
        },
        closeAfterAnswer ? (closing) => (closed = closing) : undefined,
      );
    } finally {
      rendering -= 1;
      release();
      spare?.refill();
      if (closed) {
        const done: Promise<void> = closed.catch(() => undefined).finally(() => {
          closing.delete(done);
          spare?.refill();
        });
        closing.add(done);
      }
    }
  }

  async function render({ url, options, budget, capture, outbound }: RenderRequest): Promise<RenderResult> {
    const timings: Record<string, number> = {};
    let last = performance.now();
    const lap = (name: string): void => {
      const now = performance.now();
      timings[name] = Math.round(now - last);
      last = now;
    };
    const shot = capture.screenshot ? options.screenshot || DEFAULT_SCREENSHOT : undefined;
    const { setup, emulation } = await pageSetup(options, url);
    if (shot) checkWebpViewport(shot, emulation.viewport);
    // The engine is built once per process; its first build overlaps the queue and the launch.
    if (options.adblock) void adblocker(config.adblock, work).catch(() => undefined);
    let composing: (() => Promise<Screenshot>) | undefined;
    try {
      const rendered = await onPage(
        url,
        budget,
        setup,
        async (open) => {
          await checkSelectors(open.page, selectorsOf(options, shot));
          if (options.adblock) await enableAdblock(open.page, config.adblock, work);
          // Consent tools are scripts: with scripts off there is none to answer, and autoconsent could not run.
          const consent = options.adblock && options.javascript ? await watchConsent(open.page) : undefined;
          open.consentWorld = consent !== undefined;
          const wantsCapture = capture.screenshot || capture.pdf;
          const reserve = wantsCapture ? Math.min(CAPTURE_RESERVE_MS, budget.remaining() * CAPTURE_RESERVE_SHARE) : 0;
          const loading = budget.slice(Infinity, reserve);
          const navigation = await navigate(open, url, options.waitUntil, loading, options.animations ? undefined : () => stopAnimations(open, loading));
          lap('navigate');
          await prepare(open, options, loading);
          lap('actions');
          if (consent) {
            open.phase = 'while dismissing consent banners';
            await consent.settled(loading.slice(CONSENT_MS));
            await consent.stop();
            lap('consent');
          }
          const result: RenderResult = { ...navigation, refused: [], timings };
          if (capture.html) result.html = await open.page.content();
          if (capture.evaluate?.length) result.evaluated = await evaluateAll(open.page, capture.evaluate, budget);
          const language = shot && !shot.element ? codeLanguage(navigation.headers['content-type']) : undefined;
          if (shot && language) await showCode(open, language, shot.codeScheme, budget);
          if (shot) {
            const { raw, final } = await screenshot(open, shot, emulation.viewport, budget);
            result.screenshot = raw;
            // Counted once, however many attempts withPage makes.
            if (composing === undefined) finishing += 1;
            composing = final;
            if (shot.overlay) {
              lap('screenshot');
              composing = await frame(open, raw, shot.overlay, { type: shot.type, quality: shot.quality }, budget, outbound);
            }
          }
          if (capture.pdf) result.pdf = await printPdf(open, options.pdf || pdfDefaults(), budget);
          lap('capture');
          result.refused = open.proxy.refused.map((failure) => failure.target);
          return result;
        },
        lap,
      );
      // Under way since the capture, and waited for once the page's work is done (it needs neither the page nor its slot).
      if (composing) {
        rendered.screenshot = await composing();
        lap(shot?.overlay ? 'overlay' : 'encode');
      }
      return rendered;
    } finally {
      if (composing) {
        finishing -= 1;
        spare?.refill();
      }
    }
  }

  /**
   * A Lighthouse report of `url` in a page of its own, one report at a time per browser (Lighthouse's traces and
   * throttling assume it has the browser to itself). The page is emulated as for a render, without adblock: the
   * audit measures the page as served. ETIMEOUT when the report does not finish within `budget`; the page then
   * stays open until Lighthouse has settled (at most LIGHTHOUSE_SETTLE_MS more), because closing it under a running
   * audit makes Lighthouse's own pending protocol calls reject with nobody to catch them, which ends the process.
   */
  async function lighthouse({ url, options, lighthouse: wanted, budget }: LighthouseRequest): Promise<LighthouseReport> {
    const audit = await import('./lighthouse.ts');
    const { setup, emulation } = await pageSetup(options, url);
    const release = await audits.acquire(budget);
    const stop = new AbortController();
    const share = (part: number) => Math.max(1000, Math.round(budget.remaining() * part));
    const limits = { loadWaitMs: share(LIGHTHOUSE_LOAD_SHARE), paintWaitMs: share(LIGHTHOUSE_PAINT_SHARE), signal: stop.signal };
    // Not a slice of `budget`: that one ends with the answer, and the page must outlive it (above).
    const pageBudget = new Budget(budget.remaining() + LIGHTHOUSE_SETTLE_MS);
    const report = onPage(url, budget, setup, (open) => audit.runLighthouse(open, url, wanted, emulation, limits), () => undefined, pageBudget);
    void report.finally(release).catch(() => undefined);
    const limit = budget.remaining();
    return budget.race(report, () => {
      stop.abort();
      throw new GlanceError('ETIMEOUT', `The Lighthouse report did not finish within its ${Math.round(limit / 1000)} s budget; the page may be too slow or heavy to audit.`);
    });
  }

  /**
   * The overlay (lib/browser/overlay.ts): its background now — one only Chromium can paint is painted in the
   * capture's own page, which is done with: no second page, context or proxy — and the composing, begun at once.
   */
  async function frame(open: OpenPage, capture: Screenshot, overlay: OverlayOptions, output: Encoding, budget: Budget, outbound: Outbound | undefined): Promise<() => Promise<Screenshot>> {
    const fetchImage = imageFetcher({
      policy: config.policy,
      budget,
      userAgent: config.userAgent,
      maxBytes: config.maxBodyBytes,
      resolver,
      outbound,
    });
    const renderHtml: OverlayDeps['renderHtml'] = async (html, viewport) => {
      const { page } = open;
      open.phase = 'while drawing the overlay background';
      // The document is inert (its CSP allows data: images only); a page with scripts off draws it too.
      await page.setJavaScriptEnabled(true);
      await page.goto('about:blank', { timeout: Math.max(1, budget.remaining()) });
      await page.setViewport(clampViewport({ ...viewport, isMobile: false, hasTouch: false, isLandscape: false }));
      await page.setContent(html, { waitUntil: 'load', timeout: Math.max(1, budget.remaining()) });
      await settle(open, budget, 0, viewport.height);
      return Buffer.from(await page.screenshot({ type: 'png', optimizeForSpeed: true }));
    };
    open.phase = 'while drawing the overlay';
    const compose = await prepareOverlay(capture, overlay, capture.deviceScaleFactor, output, { renderHtml, fetchImage });
    return async () => ({ ...(await compose()), deviceScaleFactor: 1 });
  }

  async function warm(): Promise<void> {
    try {
      if (!host.dedicated) await host.getBrowser();
      await Promise.all(closing);
      await spare?.prepare();
    } catch {
      // The first request launches again and reports what went wrong, with its own request id.
    }
  }

  // Graceful: nothing new is admitted or launched, the spare is closed; what was admitted finishes, then the
  // browser closes. The spare holds a lease on the browser, which the shutdown would otherwise wait for.
  const close = async (): Promise<void> => {
    // Each admitted page adds its close to `closing` as it answers, before its slot is free.
    const admitted = limiter.close().then(() => Promise.all(closing)).then(() => undefined);
    await Promise.all([spare?.close(), host.shutdown(admitted)]);
  };
  // puppeteer-core's import is a few hundred ms of module loading: never on a first capture's clock when prepared.
  const preload = async (): Promise<void> => void (await Promise.all([adblocker(config.adblock, work), consentScript(), loadPuppeteer()]));

  return { render, lighthouse, getBrowser: () => host.getBrowser(), warm, prepare: preload, close, kill: () => host.kill() };
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
    width: undefined,
    height: undefined,
  };
}
