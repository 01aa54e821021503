/**
 * What Glance adds to the page's requests, by request interception (Fetch.continueRequest), which sits below
 * CORS: headers added there trigger no preflight, unlike `setExtraHTTPHeaders`, which Chromium treats as the page's
 * own non-safelisted headers (https://github.com/microsoft/playwright/issues/21811).
 * - the hop header on every request (lib/guard/loop.ts), so a page cannot lead Glance back to itself;
 * - the caller's target-only headers (credentials, tokens, `x-api-header-*`) on requests to the target's origin
 *   alone: a third-party script, image or frame never sees them, and a redirect off the origin drops them, as a
 *   browser drops `authorization` (issue 11 item 5).
 * Interception is cooperative (priority 0) so the adblocker's aborts still win.
 */
import type { HTTPRequest, Page } from 'puppeteer-core';
import { HOP_HEADER, HOP_VALUE } from '../guard/loop.ts';

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
  headers[HOP_HEADER] = HOP_VALUE;
  return headers;
}

/** Turns interception on for `page`; `targetOnly` names are lower case. */
export async function interceptHeaders(page: Page, origin: string | undefined, targetOnly: Readonly<Record<string, string>>): Promise<void> {
  await page.setRequestInterception(true);
  page.on('request', (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    void request.continue({ headers: outgoingHeaders(request.url(), request.headers(), origin, targetOnly) }, 0);
  });
}
