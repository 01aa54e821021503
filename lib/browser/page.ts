/**
 * One wrapper owns a page's whole life (browserless' habit): a fresh isolated context with its own guarded
 * proxy, the emulation applied, the caller's work run under one hard deadline, and the context always closed.
 * Dialogs are dismissed so they cannot stall a page; a lost browser gets one retry on a fresh one, a page that
 * crashes its renderer none (see withPage).
 */
import type { Browser, BrowserContext, MediaFeature, Page } from 'puppeteer-core';
import { Budget } from '../time/budget.ts';
import { CONTEXT_CLOSE_MS, MIN_RENDER_MS, OPEN_SLOW_MS } from '../time/limits.ts';
import { GlanceError } from '../errors.ts';
import type { Resolver } from '../guard/lookup.ts';
import { requestHeaders, splitCallerHeaders } from '../fetch/headers.ts';
import type { AddressPolicy } from '../guard/policy.ts';
import type { ColorScheme, MediaType } from '../query/options.ts';
import type { BrowserHost, Lease } from './browser.ts';
import type { Viewport } from './devices.ts';
import { crashStatus, killedFromOutside, processEndedFromOutside } from './crash.ts';
import { browserTimeout, isGone, pageCrashed, rendererKilled } from './errors.ts';
import { startProxy, type GuardedProxy } from './proxy.ts';
import { interceptRequests, type Route } from './intercept.ts';
import { labelDocuments, type DocumentCharsets } from './document-charset.ts';
import { glanceSession } from './session.ts';
import type { GuessEncoding } from '../fetch/charset.ts';
import type { Spare, SpareOps } from './spare.ts';

/** What went wrong with the browser, for whoever counts it (the Lambda handler's metrics). */
export interface BrowserEvents {
  /** A render found its browser gone: killed, crashed, or wedged and replaced. */
  browserLost?(): void;
  /** A page crashed its own renderer (EPAGECRASH). */
  pageCrashed?(): void;
  /** A page was opened for a request: `spare` when it was the warm spare (spare.ts), not made on the request's clock. */
  pageOpened?(spare: boolean): void;
}

export interface PageEnv {
  readonly host: BrowserHost;
  readonly policy: AddressPolicy;
  /** The fetch path's body limit, which an undeclared https document is held to (document-charset.ts). */
  readonly maxBodyBytes: number;
  /** Where undeclared documents' encodings are guessed (lib/work/charset.ts). */
  readonly guess: GuessEncoding;
  readonly resolver?: Resolver | undefined;
  readonly events?: BrowserEvents | undefined;
  /** The warm spare page (spare.ts), taken by at most one attempt; none when GLANCE_BROWSER_SPARE=false. */
  readonly spare?: Spare<Opened> | undefined;
}

export interface PageSetup {
  readonly viewport: Viewport;
  readonly userAgent: string;
  readonly colorScheme: ColorScheme;
  readonly mediaType: MediaType;
  readonly javascript: boolean;
  /** Emulates `prefers-reduced-motion: reduce` (with `animations=false`). */
  readonly reducedMotion: boolean;
  /**
   * Caller headers: `user-agent` overrides `userAgent`, `accept-language` goes to every request, the others only
   * to requests to `origin` (lib/browser/intercept.ts).
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The target's origin, the only one the caller's credentials go to; none for a page without a target. */
  readonly origin?: string | undefined;
  /** No network at all: every request is refused (renderHtml). */
  readonly offline?: boolean;
}

export interface OpenPage {
  readonly page: Page;
  readonly proxy: GuardedProxy;
  /** The charsets given to undeclared https documents (the proxy gives http ones theirs). */
  readonly documents: DocumentCharsets;
  readonly budget: Budget;
  /** What the page is doing, for the timeout message ("while loading", "while capturing"…). */
  phase: string;
  /** The address being rendered, for messages. */
  subject: string;
  /**
   * autoconsent runs in a world of its own in the page (consent.ts). Measured: while it does, the heap walk of
   * scrolling.ts finds none of the page's IntersectionObservers, so whether the page reacts to scrolling is unknown.
   */
  consentWorld: boolean;
}

/** The caller's headers as the fetcher would send them (validated, hop-by-hop dropped), minus its defaults. */
function extraHeaders(caller: Readonly<Record<string, string>>): Record<string, string> {
  const given = new Set(Object.keys(caller).map((name) => name.toLowerCase()));
  return Object.fromEntries(
    Object.entries(requestHeaders('', { ...caller })).filter(([name]) => given.has(name) && name !== 'user-agent'),
  );
}

/** A page's settings as sent to Chromium: what applySetup compares to leave out what a primed spare has already. */
interface Applied {
  readonly viewport: string;
  readonly userAgent: string;
  readonly javascript: boolean;
  readonly media: string;
  readonly everywhere: Readonly<Record<string, string>>;
  readonly route: Route;
}

function applied(setup: PageSetup): Applied & { features: MediaFeature[] } {
  const userAgent = Object.entries(setup.headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? setup.userAgent;
  const features: MediaFeature[] = [];
  if (setup.colorScheme !== 'no-preference') features.push({ name: 'prefers-color-scheme', value: setup.colorScheme });
  if (setup.reducedMotion) features.push({ name: 'prefers-reduced-motion', value: 'reduce' });
  const { everywhere, targetOnly } = splitCallerHeaders(extraHeaders(setup.headers));
  return {
    viewport: JSON.stringify(setup.viewport),
    userAgent,
    javascript: setup.javascript,
    media: JSON.stringify([setup.mediaType, features]),
    features,
    everywhere,
    route: { origin: setup.origin, targetOnly },
  };
}

/**
 * What a spare was set up with ahead of its request (spareOps' `prime`): its settings, and how to give its
 * interception the request's route.
 */
interface Primed {
  readonly applied: Applied;
  readonly route: (next: Route) => void;
}

/**
 * Applies `setup` to a blank page; on a primed spare only what differs from what it was primed with (for a request
 * with the usual settings, nothing: the request starts at `goto`). Answers the page's route setter.
 */
async function applySetup(page: Page, setup: PageSetup, primed?: Primed): Promise<Primed['route']> {
  const wanted = applied(setup);
  const had = primed?.applied;
  if (!had) page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  const [route] = await Promise.all([
    had ? primed.route : interceptRequests(page, wanted.route),
    had?.viewport === wanted.viewport ? undefined : page.setViewport(setup.viewport),
    had?.userAgent === wanted.userAgent ? undefined : page.setUserAgent({ userAgent: wanted.userAgent }),
    (had?.javascript ?? true) === wanted.javascript ? undefined : page.setJavaScriptEnabled(wanted.javascript),
    had?.media === wanted.media ? undefined : emulateMedia(page, setup.mediaType, wanted.features, had !== undefined),
    // accept-language is CORS-safelisted, so setting it for every request triggers no preflight.
    JSON.stringify(had?.everywhere ?? {}) === JSON.stringify(wanted.everywhere) ? undefined : page.setExtraHTTPHeaders(wanted.everywhere),
  ]);
  route(wanted.route);
  return route;
}

/**
 * Media type and features in one call, on Glance's session of the page (session.ts: the one session whose media
 * lasts). Puppeteer's emulateMediaType and emulateMediaFeatures each send only their half, resetting the other.
 * `reset`: the page had other media emulated (a primed spare), which screen media without features must clear.
 */
async function emulateMedia(page: Page, mediaType: MediaType, features: MediaFeature[], reset: boolean): Promise<void> {
  if (mediaType === 'screen' && features.length === 0 && !reset) return;
  const session = await glanceSession(page);
  await session.send('Emulation.setEmulatedMedia', { media: mediaType === 'screen' ? '' : mediaType, features });
}

/** What createBrowserContext's `downloadBehavior` does for a context of its own, for the default one. */
async function denyDownloads(browser: Browser): Promise<void> {
  const session = await browser.target().createCDPSession();
  await session.send('Browser.setDownloadBehavior', { behavior: 'deny' });
  await session.detach();
}

async function closeContext(env: PageEnv, browser: Browser, context: BrowserContext | undefined): Promise<void> {
  if (!context) return;
  const closed = await Budget.cap(
    context.close().then(
      () => true,
      () => !browser.connected,
    ),
    CONTEXT_CLOSE_MS,
    false,
  );
  if (!closed) env.host.discard(browser);
}

/** What withPage needs to know about a failed attempt: which browser it ran on, and whether the page crashed. */
interface Outcome {
  browser: Browser | undefined;
  crashed: boolean;
  /** The page's renderer was killed from outside (crash.ts): not the page's doing. */
  killed: boolean;
  /** The browser was the page's alone (single-process mode), and whether it was gone when the page failed. */
  dedicated: boolean;
  goneOnFailure: boolean;
}

const freshOutcome = (): Outcome => ({ browser: undefined, crashed: false, killed: false, dedicated: false, goneOnFailure: false });

/**
 * While a page is slow to open, its browser is probed until it opens; browser.ts kills one that stopped
 * answering, which fails this attempt at once so withPage can retry on a fresh browser. A silent probe is
 * followed at once by the next (the verdict needs several in a row); one that answered, only after
 * OPEN_SLOW_MS more, so a browser that is merely busy is not also flooded with probes. `untilAnswered`: the watch
 * ends with the first probe that answers (a spare's browser, checked once as it is taken).
 */
function watchOpening(host: BrowserHost, browser: Browser, { firstMs = OPEN_SLOW_MS, untilAnswered = false } = {}): () => void {
  let stopped = false;
  const check = async (): Promise<void> => {
    const answered = await host.probe(browser);
    if (stopped || host.isGone(browser) || (answered && untilAnswered)) return;
    timer = setTimeout(() => void check(), answered ? OPEN_SLOW_MS : 0);
  };
  let timer = setTimeout(() => void check(), firstMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * A blank page no request has used, before any request's settings: its own guarded proxy, its hold on a browser,
 * and its own context (a dedicated browser's default one in single-process mode). Made per attempt, or ahead of
 * time as the spare (spare.ts): nothing in it depends on the request, which applySetup brings afterwards.
 */
export interface Opened {
  readonly proxy: GuardedProxy;
  readonly lease: Lease;
  readonly context: BrowserContext;
  readonly page: Page;
  /** A spare's settings applied ahead (spareOps' `prime`); none for a page opened for its request. */
  readonly primed?: Primed | undefined;
}

/**
 * What an opening holds so far, for `letGo` to close whatever stage it reached. `over` is set when the opening's
 * owner gave up: a piece that arrives after that is closed at once by the opening itself, never leaked.
 */
interface Holding {
  proxy?: GuardedProxy;
  lease?: Lease;
  context?: BrowserContext;
  over: boolean;
}

/** Receives the close of a page whose work is done (see withPage). */
export type Closing = (closed: Promise<void>) => void;

const abandoned = (what: string): Error => new Error(`The page was abandoned before ${what}.`);

async function openPage(env: PageEnv, offline: boolean, holding: Holding, onBrowser: (lease: Lease) => void = () => undefined): Promise<Opened> {
  const proxy = await startProxy(offline ? { policy: env.policy, offline: true } : { policy: env.policy, guess: env.guess, ...(env.resolver ? { resolver: env.resolver } : {}) });
  if (holding.over) {
    await proxy.close();
    throw abandoned('its proxy was ready');
  }
  holding.proxy = proxy;
  const lease = await env.host.lease(proxy.url);
  if (holding.over) {
    void lease.release();
    throw abandoned('its browser was ready');
  }
  holding.lease = lease;
  onBrowser(lease);
  const { browser } = lease;
  // A dedicated browser was launched for this page with its proxy; its default context is as fresh as a new one.
  const context = lease.dedicated
    ? browser.defaultBrowserContext()
    : await browser.createBrowserContext({
        proxyServer: proxy.url,
        proxyBypassList: ['<-loopback>'],
        // A response that would be saved as a file is refused rather than written to disk.
        downloadBehavior: { policy: 'deny' },
      });
  if (holding.over) {
    if (!lease.dedicated) await closeContext(env, browser, context);
    throw abandoned('its context opened');
  }
  holding.context = context;
  if (lease.dedicated) await denyDownloads(browser);
  return { proxy, lease, context, page: await context.newPage() };
}

/** Closes what `holding` holds: the context (which takes its page), then the browser's lease, then the proxy. */
async function letGo(env: PageEnv, holding: Holding): Promise<void> {
  holding.over = true;
  const { proxy, lease, context } = holding;
  if (lease && !lease.dedicated) await closeContext(env, lease.browser, context);
  // A dedicated browser is closed here too, so a close made before an answer (Lambda's) leaves no Chromium behind.
  await lease?.release();
  await proxy?.close();
}

/**
 * How page.ts's spares are made and checked, for spare.ts. Offline pages never take one: its proxy is online.
 * `prime`: the settings most requests have (the default device and options), applied to each spare as it is made,
 * so that such a request sends nothing before `goto`; a request with others has only the difference applied.
 */
export function spareOps(env: PageEnv, prime?: () => Promise<PageSetup>): SpareOps<Opened> {
  return {
    make: async () => {
      const holding: Holding = { over: false };
      try {
        const opened = await openPage(env, false, holding);
        if (!prime) return opened;
        const setup = await prime();
        const route = await applySetup(opened.page, setup);
        return { ...opened, primed: { applied: applied(setup), route } };
      } catch (error) {
        await letGo(env, holding);
        throw error;
      }
    },
    usable: ({ page, lease }) => !page.isClosed() && !env.host.isGone(lease.browser),
    watch: ({ page, lease }, lost) => {
      page.once('error', lost);
      page.once('close', lost);
      lease.browser.once('disconnected', lost);
      return () => {
        page.off('error', lost);
        page.off('close', lost);
        lease.browser.off('disconnected', lost);
      };
    },
    discard: (opened) => letGo(env, { ...opened, over: false }),
  };
}

/**
 * Rejects once `page`'s renderer goes. Puppeteer's 'error' event is Inspector.targetCrashed: the renderer died (out of
 * memory, say), the page's doing (EPAGECRASH), unless it was killed from outside (crash.ts), which is ours: the work
 * is tried again in a fresh context. Marks `outcome` with which it was.
 */
function crashOf(page: Page, outcome: Outcome, subject: () => string): Promise<never> {
  const crashed = new Promise<never>((_, reject) =>
    page.once('error', (error) => {
      void crashStatus(page)
        .catch(() => undefined)
        .then((status) => {
          if (killedFromOutside(status)) {
            outcome.killed = true;
            reject(rendererKilled(subject(), error));
          } else {
            outcome.crashed = true;
            reject(pageCrashed(subject(), error));
          }
        });
    }),
  );
  crashed.catch(() => undefined);
  return crashed;
}

async function attempt<T>(
  env: PageEnv,
  budget: Budget,
  setup: PageSetup,
  fn: (open: OpenPage) => Promise<T>,
  outcome: Outcome,
  closing: Closing | undefined,
): Promise<T> {
  let session: OpenPage | undefined;
  let done = false;
  const total = budget.remaining();
  let holding: Holding = { over: false };
  let stopWatching: (() => void) | undefined;
  const onBrowser = (lease: Lease): void => {
    outcome.dedicated = lease.dedicated;
    outcome.browser = lease.browser;
    stopWatching = watchOpening(env.host, lease.browser);
  };
  const work = (async () => {
    const spare = setup.offline ? undefined : await env.spare?.claim();
    // A spare that came after the attempt was given up (its deadline passed while the spare was being made).
    if (spare && holding.over) {
      await letGo(env, { ...spare, over: false });
      throw abandoned('its spare was ready');
    }
    if (spare) {
      holding = { ...spare, over: false };
      onBrowser(spare.lease);
    }
    env.events?.pageOpened?.(spare !== undefined);
    const { page, proxy, primed } = spare ?? (await openPage(env, setup.offline ?? false, holding, onBrowser));
    const crashed = crashOf(page, outcome, () => session?.subject ?? 'the page');
    const [documents] = await Promise.all([
      labelDocuments(page, () => ({ maxBytes: env.maxBodyBytes, budget }), env.guess),
      applySetup(page, setup, primed),
    ]);
    stopWatching?.();
    // A primed spare may reach `goto` without a word to its browser, which may have stopped answering while the
    // spare waited: one probe beside the navigation (and more at once while silent) finds that, as opening would.
    if (spare) stopWatching = watchOpening(env.host, spare.lease.browser, { firstMs: 0, untilAnswered: true });
    session = { page, proxy, documents, budget, phase: 'while opening', subject: 'the page', consentWorld: false };
    return Promise.race([fn(session), crashed]);
  })();
  try {
    const value = await budget.race(work, () => {
      throw browserTimeout(session?.subject ?? 'the page', session?.phase ?? 'while opening', total);
    });
    done = true;
    return value;
  } catch (error) {
    const { browser } = outcome;
    // Read before the release below closes a dedicated browser, which would make it look lost.
    outcome.goneOnFailure = browser !== undefined && env.host.isGone(browser);
    // A dedicated browser is its page's renderer: how its process ended says whose doing that was (crash.ts).
    if (outcome.dedicated && outcome.goneOnFailure) outcome.killed = await processEndedFromOutside(browser!.process());
    if (browser && !browser.connected) env.host.discard(browser);
    throw error;
  } finally {
    stopWatching?.();
    const closed = letGo(env, holding);
    // A failed attempt that may be tried again is closed before the retry (whose browser its close may condemn).
    // A done one's close need not hold up the answer, nor a failed one's when no retry fits in what is left: the
    // error then comes within the budget, however long a loaded or wedged browser takes to close the page.
    if (closing && (done || budget.remaining() < MIN_RENDER_MS)) closing(closed);
    else await closed;
  }
}

/**
 * Runs `fn` on a fresh page in its own context and proxy, within `budget`; always closes both.
 * - A browser that went away under the page (killed, crashed, wedged and replaced) is not the target's doing:
 *   the work is retried once on a fresh browser if a render still fits in the budget.
 * - A page that crashed its own renderer is EPAGECRASH and is not tried again: the same page would crash the
 *   next renderer too, at twice the cost.
 * - A page whose document or context vanished while the browser lives (a late client-side redirect mid-capture)
 *   is retried once in a new context.
 *
 * With `closing`, the page of work that succeeded, or that failed with no time left for a retry, is closed in the
 * background, after withPage has answered: `closing` receives the close (it never rejects), for whoever must wait
 * for it (the spare's refill, a shutdown).
 */
export async function withPage<T>(
  env: PageEnv,
  budget: Budget,
  setup: PageSetup,
  fn: (open: OpenPage) => Promise<T>,
  closing?: Closing,
): Promise<T> {
  const first = freshOutcome();
  try {
    return await attempt(env, budget, setup, fn, first, closing);
  } catch (error) {
    const lost = browserLost(env, first);
    report(env, first, lost);
    const retry = !first.crashed && (lost || first.killed || (!(error instanceof GlanceError) && isGone(error)));
    if (!retry || budget.remaining() < MIN_RENDER_MS) throw outcomeError(error, first, lost);
    const second = freshOutcome();
    return attempt(env, budget, setup, fn, second, closing).catch((again: unknown) => {
      const lostAgain = browserLost(env, second);
      report(env, second, lostAgain);
      throw outcomeError(again, second, lostAgain);
    });
  }
}

function report(env: PageEnv, outcome: Outcome, lost: boolean): void {
  if (outcome.crashed) env.events?.pageCrashed?.();
  else if (lost || outcome.killed) env.events?.browserLost?.();
}

/**
 * Whether the browser went away under the page. A dedicated browser that died ran nothing but this page: in
 * single-process mode the page's renderer is the browser, so its crash is the page's (EPAGECRASH, no retry),
 * unless a signal from outside ended it (a kill: ours, retried like a lost browser).
 */
function browserLost(env: PageEnv, outcome: Outcome): boolean {
  if (!outcome.dedicated) return outcome.browser !== undefined && env.host.isGone(outcome.browser);
  if (outcome.goneOnFailure && !outcome.killed) outcome.crashed = true;
  return outcome.goneOnFailure;
}

/** The caller's error for a failed attempt: a lost browser is ours (never the target's EFETCH), a crash the page's. */
function outcomeError(error: unknown, outcome: Outcome, lost: boolean): GlanceError {
  if (outcome.crashed) return error instanceof GlanceError && error.code === 'EPAGECRASH' ? error : pageCrashed('the page', error);
  if (outcome.killed && !(error instanceof GlanceError)) return rendererKilled('the page', error);
  if (lost && !(error instanceof GlanceError && error.code === 'EBRWSRTIMEOUT')) {
    return new GlanceError('EFATAL', `The browser stopped while rendering: ${messageOf(error)}`, { cause: error });
  }
  return translate(error);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function translate(error: unknown): GlanceError {
  if (error instanceof GlanceError) return error;
  return new GlanceError('EFATAL', `The browser failed: ${messageOf(error)}`, { cause: error });
}
