/**
 * Every request of a page passes here, by request interception (Fetch.requestPaused), which sits below CORS:
 * headers added here set off no preflight, unlike `setExtraHTTPHeaders`, which Chromium treats as the page's own
 * non-safelisted headers (https://github.com/microsoft/playwright/issues/21811).
 * - counted against the page's allowance (PAGE_LIMITS): past it the request is aborted, never queued, so a page
 *   naming 20 000 images on one host costs that host at most PAGE_LIMITS.perHost requests (issue 11 item 2);
 * - the final hop mark on every request (lib/guard/loop.ts), so a page cannot lead any Glance to answer it;
 * - the caller's target-only headers (credentials, tokens, `x-api-header-*`) on requests to the target's origin
 *   alone: a third-party script, image or frame never sees them, and a redirect off the origin drops them, as a
 *   browser drops `authorization` (issue 11 item 5).
 * Interception is cooperative (priority 0), so the adblocker's aborts still win.
 */
import type { HTTPRequest, Page } from 'puppeteer-core';
import { FINAL_HOP, HOP_HEADER } from '../guard/loop.ts';
import { Outbound, type OutboundLimits } from '../guard/outbound.ts';

/**
 * What one page may request. Far above what Glance's own fetching may (a real page loads 50–300 subresources,
 * heavy news pages a few hundred more), and still a bound: without it a page's requests end only with its budget.
 */
export const PAGE_LIMITS: OutboundLimits = Object.freeze({ total: 1000, perHost: 300 });

const originOf = (url: string): string | undefined => URL.parse(url)?.origin;

/** The request's headers as Glance sends them. Exported for tests. */
export function outgoingHeaders(
  url: string,
  sent: Readonly<Record<string, string>>,
  origin: string | undefined,
  targetOnly: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    // Chromium carries a continued request's headers over a redirect: ours come off again, the page's own stay.
    if (targetOnly[name] !== value) headers[name] = value;
  }
  if (origin !== undefined && originOf(url) === origin) Object.assign(headers, targetOnly);
  headers[HOP_HEADER] = FINAL_HOP;
  return headers;
}

/** True when the page's allowance has room for `url` (counting it); data: and blob: URLs cost nothing. */
function admits(allowance: Outbound, url: string): boolean {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return true;
  try {
    allowance.take(parsed);
    return true;
  } catch {
    return false;
  }
}

/** Where the caller's target-only headers go: the target's origin, and the headers (names lower case). */
export interface Route {
  readonly origin: string | undefined;
  readonly targetOnly: Readonly<Record<string, string>>;
}

/**
 * Turns interception on for `page`, with `route`; the function answered sets the route of a page turned on before
 * its request was known (the warm spare, page.ts), and must be called before it navigates.
 */
export async function interceptRequests(page: Page, route: Route): Promise<(next: Route) => void> {
  const allowance = new Outbound(PAGE_LIMITS);
  let { origin, targetOnly } = route;
  await page.setRequestInterception(true);
  page.on('request', (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    if (!admits(allowance, request.url())) return void request.abort('blockedbyclient', 0);
    void request.continue({ headers: outgoingHeaders(request.url(), request.headers(), origin, targetOnly) }, 0);
  });
  return (next) => ({ origin, targetOnly } = next);
}
