/**
 * Loading the target (docs/CONTRACT.md §2 `waitUntil`) and reporting its main response. `auto` is: the document, then
 * `load` for at most AUTO_LOAD_CAP_MS, then a short wait for network quiet (quiet.ts), so a page with one request that
 * never ends is still captured (what loaded); an explicit waitUntil that is not met within budget is EBRWSRTIMEOUT.
 */
import type { HTTPRequest, HTTPResponse, PuppeteerLifeCycleEvent } from 'puppeteer-core';
import { Budget } from '../time/budget.ts';
import { AUTO_LOAD_CAP_MS } from '../time/limits.ts';
import { GlanceError } from '../errors.ts';
import { responseHeaders } from '../fetch/headers.ts';
import type { Redirect } from '../fetch/index.ts';
import type { WaitUntil } from '../query/options.ts';
import { browserTimeout, documentFailure, isTimeout } from './errors.ts';
import { inPage, REFRESH_DELAYS, REFRESH_TIME } from './inpage.ts';
import type { OpenPage } from './page.ts';
import { watchNetwork } from './quiet.ts';

export interface Navigation {
  /** The final address, after redirects. */
  readonly url: string;
  readonly statusCode: number | null;
  /** Lower-case names, repeated fields joined with ', ', set-cookie dropped (as the fetcher answers them). */
  readonly headers: Record<string, string>;
  readonly redirects: Redirect[];
}

/** docs/CONTRACT.md §3: more hops than this is EMAXREDIRECTS, as for the fetcher. */
const MAX_REDIRECTS = 10;

function redirectsOf(response: HTTPResponse): Redirect[] {
  const chain = response.request().redirectChain();
  return chain.map((request, index) => ({
    statusCode: request.response()?.status() ?? 0,
    url: (chain[index + 1] ?? response.request()).url(),
  }));
}

/** Puppeteer joins repeated fields with newlines; the fetcher's rules make them comma lists. */
const headersOf = (response: HTTPResponse): Record<string, string> =>
  responseHeaders(Object.fromEntries(Object.entries(response.headers()).map(([name, value]) => [name, value.split('\n')])));

/**
 * Loads `url` by `waitUntil`. `afterLoad`, when given, runs once the page has loaded, beside `auto`'s wait for network
 * quiet (which costs the page nothing while it waits), and is waited for too.
 */
export async function navigate(
  open: OpenPage,
  url: URL,
  waitUntil: readonly WaitUntil[],
  budget: Budget,
  afterLoad: () => Promise<void> = async () => undefined,
): Promise<Navigation> {
  const { page, proxy } = open;
  const isMain = (request: HTTPRequest): boolean => request.isNavigationRequest() && request.frame() === page.mainFrame();
  let mainResponse: HTTPResponse | undefined;
  let failedUrl = url.href;
  page.on('response', (response) => {
    if (isMain(response.request())) mainResponse = response;
  });
  page.on('requestfailed', (request) => {
    if (isMain(request)) failedUrl = request.url();
  });

  const auto = waitUntil.includes('auto');
  const events = waitUntil.filter((event): event is PuppeteerLifeCycleEvent => event !== 'auto');
  if (auto && !events.includes('load')) events.push('load');
  const budgetMs = budget.remaining();
  // Watched from before the navigation: the quiet counts from the network's own last event, even before `load`.
  const network = auto ? watchNetwork(page) : undefined;
  try {
    open.phase = `while loading (waitUntil=${waitUntil.join(',')})`;
    const goto = page.goto(url.href, { waitUntil: events, timeout: Math.max(1, budgetMs) });
    goto.catch(() => undefined);

    let response: HTTPResponse | null | undefined;
    try {
      if (auto) {
        // From DOMContentLoaded on, `load` gets AUTO_LOAD_CAP_MS of the budget.
        const loaded = new Promise<void>((resolve) => page.once('domcontentloaded', () => resolve()));
        const settled = await Promise.race([goto, loaded.then(() => budget.slice(AUTO_LOAD_CAP_MS).race(goto, () => 'stalled' as const))]);
        response = settled === 'stalled' ? mainResponse : settled;
      } else {
        response = await goto;
      }
    } catch (error) {
      // `auto` captures what loaded: a document that arrived is enough when `load` never comes.
      if (!(auto && isTimeout(error) && mainResponse)) {
        throw isTimeout(error) ? browserTimeout(url.href, open.phase, budgetMs, error) : documentFailure(error, failedUrl, proxy);
      }
      response = mainResponse;
    }
    const settle = async (): Promise<void> => {
      const loadedAt = performance.now();
      if (network) open.phase = 'while waiting for the network to settle';
      await Promise.all([afterLoad(), network?.settled(loadedAt, Math.max(1, budget.remaining()))]);
    };
    await settle();
    if (await followedRefresh(open, events, budget, (mainResponse ?? response)?.headers()['refresh'])) await settle();
    // The page moved on (a refresh, a script) to an address refused or unreachable: Chromium's error page is not a page
    // of the target, and that failure is the outcome.
    if (page.url().startsWith('chrome-error:')) throw documentFailure(new Error('the page it moved to did not load'), failedUrl, proxy);
    // The latest main-document response: a script or meta refresh may have moved the page on since goto.
    return describe(mainResponse ?? response ?? undefined, page.url(), open);
  } finally {
    network?.stop();
  }
}

/** A refresh due sooner than this is the page moving on; a later one is part of the page. */
const DUE_REFRESH_S = 1;

/**
 * A refresh due at once (`<meta http-equiv=refresh content="0;url=…">`, or the `Refresh` header) moves the page on once
 * it has loaded, in a task of its own: on a busy renderer, after the network went quiet. The page it leads to is the
 * one answered and captured, so its events are waited for (within AUTO_LOAD_CAP_MS and the budget); true when a new
 * document came meanwhile.
 */
async function followedRefresh(open: OpenPage, events: PuppeteerLifeCycleEvent[], budget: Budget, header: string | undefined): Promise<boolean> {
  const capMs = Math.max(1, Math.min(AUTO_LOAD_CAP_MS, budget.remaining()));
  let came = false;
  // Listened for before looking, so a refresh that starts in between is not missed.
  const moved = open.page.waitForNavigation({ waitUntil: events, timeout: capMs }).then(() => (came = true), () => false);
  let delays: unknown;
  try {
    delays = await Budget.cap(open.page.evaluate(inPage(REFRESH_DELAYS)), capMs, null);
  } catch {
    // The page's own errors are caught in the look: its document went away under it, so a navigation came.
    return moved;
  }
  // Before `load` has run (auto's capture of a page that never loads), Chromium starts no refresh.
  if (!Array.isArray(delays)) return came;
  const fromHeader = header === undefined ? undefined : REFRESH_TIME.exec(header)?.[1];
  const due = [...delays, Number(fromHeader)].some((delay) => typeof delay === 'number' && delay < DUE_REFRESH_S);
  if (!due) return came;
  open.phase = "while following the page's refresh";
  return moved;
}

function describe(response: HTTPResponse | undefined, pageUrl: string, open: OpenPage): Navigation {
  if (!response) return { url: pageUrl, statusCode: null, headers: {}, redirects: [] };
  const finalUrl = response.url();
  // For plain http the proxy answers in the target's place when it refused or could not reach it: that is the
  // outcome, not a page. (An https response came through an established tunnel, so it is the target's own.)
  const failure = finalUrl.startsWith('http:') ? open.proxy.failureFor(new URL(finalUrl)) : undefined;
  if (failure) throw failure.error;
  const redirects = redirectsOf(response);
  if (redirects.length > MAX_REDIRECTS) {
    throw new GlanceError('EMAXREDIRECTS', `The target redirected more than ${MAX_REDIRECTS} times; the last hop was to ${finalUrl}.`);
  }
  const headers = headersOf(response);
  // The target's headers, not the charset given to an undeclared page (charset.ts, document-charset.ts).
  const sent = (finalUrl.startsWith('http:') ? open.proxy : open.documents).sentContentType(new URL(finalUrl));
  if (sent !== undefined) headers['content-type'] = sent;
  return { url: finalUrl, statusCode: response.status(), headers, redirects };
}
