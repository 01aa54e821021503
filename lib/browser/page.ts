/**
 * One wrapper owns a page's whole life (browserless' habit): a fresh isolated context with its own guarded
 * proxy, the emulation applied, the caller's work run under one hard deadline, and the context always closed.
 * Dialogs are dismissed so they cannot stall a page; a crashed page or browser gets one retry in a new context.
 */
import type { Browser, BrowserContext, MediaFeature, Page } from 'puppeteer-core';
import type { Budget } from '../time/budget.ts';
import { GlanceError } from '../errors.ts';
import type { Resolver } from '../guard/lookup.ts';
import { requestHeaders } from '../fetch/headers.ts';
import type { AddressPolicy } from '../guard/policy.ts';
import type { ColorScheme, MediaType } from '../query/options.ts';
import type { BrowserHost } from './browser.ts';
import { capped } from '../time/capped.ts';
import type { Viewport } from './devices.ts';
import { browserTimeout, isGone } from './errors.ts';
import { startProxy, type GuardedProxy } from './proxy.ts';

export interface PageEnv {
  readonly host: BrowserHost;
  readonly policy: AddressPolicy;
  readonly resolver?: Resolver | undefined;
}

export interface PageSetup {
  readonly viewport: Viewport;
  readonly userAgent: string;
  readonly colorScheme: ColorScheme;
  readonly mediaType: MediaType;
  readonly javascript: boolean;
  /** Emulates `prefers-reduced-motion: reduce` (with `animations=false`). */
  readonly reducedMotion: boolean;
  /** Caller headers for every request of the page (`user-agent` among them overrides `userAgent`). */
  readonly headers: Readonly<Record<string, string>>;
  /** No network at all: every request is refused (renderHtml). */
  readonly offline?: boolean;
}

export interface OpenPage {
  readonly page: Page;
  readonly proxy: GuardedProxy;
  readonly budget: Budget;
  /** What the page is doing, for the timeout message ("while loading", "while capturing"…). */
  phase: string;
  /** The address being rendered, for messages. */
  subject: string;
}

/** How long closing a context may take before the browser is presumed wedged and replaced. */
const CLOSE_GRACE_MS = 2000;

/** The caller's headers as the fetcher would send them (validated, hop-by-hop dropped), minus its defaults. */
function extraHeaders(caller: Readonly<Record<string, string>>): Record<string, string> {
  const given = new Set(Object.keys(caller).map((name) => name.toLowerCase()));
  return Object.fromEntries(
    Object.entries(requestHeaders('', { ...caller })).filter(([name]) => given.has(name) && name !== 'user-agent'),
  );
}

async function applySetup(page: Page, setup: PageSetup): Promise<void> {
  const userAgent = Object.entries(setup.headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? setup.userAgent;
  const features: MediaFeature[] = [];
  if (setup.colorScheme !== 'no-preference') features.push({ name: 'prefers-color-scheme', value: setup.colorScheme });
  if (setup.reducedMotion) features.push({ name: 'prefers-reduced-motion', value: 'reduce' });
  const headers = extraHeaders(setup.headers);
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  await Promise.all([
    page.setViewport(setup.viewport),
    page.setUserAgent({ userAgent }),
    setup.javascript ? undefined : page.setJavaScriptEnabled(false),
    emulateMedia(page, setup.mediaType, features),
    Object.keys(headers).length > 0 ? page.setExtraHTTPHeaders(headers) : undefined,
  ]);
}

/**
 * Puppeteer's emulateMediaType and emulateMediaFeatures each send Emulation.setEmulatedMedia with only their
 * half, and each call resets the other half; print media with features therefore goes in one call of our own.
 */
async function emulateMedia(page: Page, mediaType: MediaType, features: MediaFeature[]): Promise<void> {
  if (mediaType === 'screen') {
    if (features.length > 0) await page.emulateMediaFeatures(features);
    return;
  }
  const session = await page.createCDPSession();
  await session.send('Emulation.setEmulatedMedia', { media: mediaType, features });
}

/** Rejects with EBRWSRTIMEOUT when the budget runs out; `cancel` stops the timer. */
function deadline(budget: Budget, open: () => OpenPage | undefined): { expired: Promise<never>; cancel: () => void } {
  const total = budget.remaining();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const session = open();
      reject(browserTimeout(session?.subject ?? 'the page', session?.phase ?? 'while opening', total));
    }, Math.max(1, total));
  });
  expired.catch(() => undefined);
  return { expired, cancel: () => clearTimeout(timer) };
}

async function closeContext(env: PageEnv, browser: Browser, context: BrowserContext | undefined): Promise<void> {
  if (!context) return;
  const closed = await capped(
    context.close().then(
      () => true,
      () => !browser.connected,
    ),
    CLOSE_GRACE_MS,
    false,
  );
  if (!closed) env.host.discard(browser);
}

async function attempt<T>(env: PageEnv, budget: Budget, setup: PageSetup, fn: (open: OpenPage) => Promise<T>): Promise<T> {
  let session: OpenPage | undefined;
  const { expired, cancel } = deadline(budget, () => session);
  const proxy = await startProxy({ policy: env.policy, resolver: env.resolver, offline: setup.offline });
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  /** Set once the attempt is over: a context that arrives after it is closed at once, not leaked. */
  let over = false;
  const work = (async () => {
    browser = await env.host.getBrowser();
    const created = await browser.createBrowserContext({
      proxyServer: proxy.url,
      proxyBypassList: ['<-loopback>'],
      // A response that would be saved as a file is refused rather than written to disk.
      downloadBehavior: { policy: 'deny' },
    });
    if (over) {
      await closeContext(env, browser, created);
      throw new Error('The page was abandoned before its context opened.');
    }
    context = created;
    const page = await context.newPage();
    const crashed = new Promise<never>((_, reject) => page.once('error', reject));
    crashed.catch(() => undefined);
    await applySetup(page, setup);
    session = { page, proxy, budget, phase: 'while opening', subject: 'the page' };
    return Promise.race([fn(session), crashed]);
  })();
  work.catch(() => undefined);
  try {
    return await Promise.race([work, expired]);
  } catch (error) {
    if (browser && !browser.connected) env.host.discard(browser);
    throw error;
  } finally {
    over = true;
    cancel();
    if (browser) await closeContext(env, browser, context);
    await proxy.close();
  }
}

/**
 * Runs `fn` on a fresh page in its own context and proxy, within `budget`; always closes both. A page or
 * browser that went away (crash, killed process) is retried once, in a new context, if budget remains.
 */
export async function withPage<T>(env: PageEnv, budget: Budget, setup: PageSetup, fn: (open: OpenPage) => Promise<T>): Promise<T> {
  try {
    return await attempt(env, budget, setup, fn);
  } catch (error) {
    if (error instanceof GlanceError || !isGone(error) || budget.expired) throw translate(error);
    return attempt(env, budget, setup, fn).catch((again: unknown) => {
      throw translate(again);
    });
  }
}

function translate(error: unknown): GlanceError {
  if (error instanceof GlanceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GlanceError('EFATAL', `The browser failed: ${message}`, { cause: error });
}
