/**
 * The overlay of a capture (lib/browser/overlay.ts) started from its page: its background now — one only Chromium
 * can paint is painted in the capture's own page, which is done with: no second page, context or proxy — and the
 * composing, begun at once.
 */
import type { FetchOptions } from '../fetch/index.ts';
import type { Encoding } from '../media/encode.ts';
import type { OverlayOptions } from '../query/options.ts';
import type { Budget } from '../time/budget.ts';
import { settle } from './actions.ts';
import type { Screenshot } from './capture.ts';
import { clampViewport } from './devices.ts';
import { imageFetcher, prepareOverlay, type OverlayDeps } from './overlay.ts';
import type { OpenPage } from './page.ts';

/** What fetching an overlay's background image needs (within the capture's budget): the guard, the answer's allowance. */
export type FrameDeps = Pick<FetchOptions, 'policy' | 'userAgent' | 'maxBytes' | 'resolver' | 'outbound'>;

export async function frame(
  open: OpenPage,
  capture: Screenshot,
  overlay: OverlayOptions,
  output: Encoding,
  budget: Budget,
  deps: FrameDeps,
): Promise<() => Promise<Screenshot>> {
  const fetchImage = imageFetcher({ ...deps, budget });
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
