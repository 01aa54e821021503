/**
 * Screenshots and PDFs of a loaded page (docs/CONTRACT.md §5, §2 `pdf`). Reported sizes are read from the encoded
 * image itself: viewport × deviceScaleFactor for a plain capture, the element's box × scale for `element`.
 */
import type { Page, ScreenshotOptions as PuppeteerScreenshotOptions } from 'puppeteer-core';
import type { Budget } from '../time/budget.ts';
import { ELEMENT_MARGIN_MS, ELEMENT_WAIT_MS } from '../time/limits.ts';
import { GlanceError, invalidParam } from '../errors.ts';
import { rasterSize } from '../media/dimensions.ts';
import { encode } from '../media/encode.ts';
import { loadSharp, release } from '../media/sharp.ts';
import { PAPER_INCHES, type PdfOptions, type ScreenshotOptions, type ScreenshotType } from '../query/options.ts';
import { hydrate, settle } from './actions.ts';
import { MAX_DEVICE_AREA, type Viewport } from './devices.ts';
import { frameGeometry } from './overlay/frame.ts';
import { browserTimeout, isTimeout } from './errors.ts';
import { inPage, TOP_AND_HEIGHT } from './inpage.ts';
import type { OpenPage } from './page.ts';
import { glanceSession } from './session.ts';

export interface Screenshot {
  readonly body: Buffer;
  readonly type: ScreenshotType;
  /** The image's own pixels. */
  readonly width: number;
  readonly height: number;
  readonly deviceScaleFactor: number;
}

/**
 * A full-page capture stops at this many image pixels tall (8192 CSS px at the default 2× device), so a
 * 100 000 px page is a bounded, successful capture of its top. Beyond it a capture costs seconds of CPU and
 * hundreds of MB (2560 × 16384 RGBA is 168 MB before encoding), and JPEG cannot exceed 65535 px anyway. A wider
 * capture stops sooner, and an element's box is cut to fit as well: no capture holds more than MAX_DEVICE_AREA.
 */
export const FULL_PAGE_MAX_PIXELS = 16_384;

/**
 * Chromium encodes PNG and JPEG itself (bench/RESULTS.md, issue 16: a PNG re-encoded by sharp cost 10 % more CPU per
 * capture and 7 % more bytes for a few per cent of latency at four at once, and nothing alone). When sharp writes
 * the final image — an overlay, or WebP, which sharp's libwebp at effort 2 encodes no slower than Chromium's encoder,
 * at the same size — Chromium hands over a lossless PNG made for speed (about 50 ms less than its default PNG of a
 * 2560×1600 capture, nearly three times the bytes, decoded again at once).
 */
const reencoded = (options: ScreenshotOptions): boolean => options.overlay !== undefined || options.type === 'webp';

const encoding = (options: ScreenshotOptions): PuppeteerScreenshotOptions =>
  reencoded(options)
    ? { type: 'png', optimizeForSpeed: true, omitBackground: options.omitBackground }
    : {
        type: options.type,
        ...(options.type === 'jpeg' ? { quality: options.quality } : {}),
        omitBackground: options.omitBackground,
        optimizeForSpeed: options.optimizeForSpeed,
      };

async function elementClip(open: OpenPage, selector: string, budget: Budget) {
  const { page } = open;
  open.phase = `while waiting for screenshot.element ${selector}`;
  const waitMs = Math.max(1, Math.min(ELEMENT_WAIT_MS, budget.remaining() - ELEMENT_MARGIN_MS));
  const handle = await page.waitForSelector(selector, { visible: true, timeout: waitMs }).catch((error: unknown) => {
    if (isTimeout(error)) return null;
    throw error;
  });
  const box = await handle?.boundingBox();
  await handle?.dispose();
  // boundingBox is relative to the viewport; a clip is in document coordinates. The scroll offsets come from Chromium
  // (as Puppeteer's own element screenshots take them), not from the page's scrollX, which its script may redefine.
  const { pageX, pageY } = box ? await scrollOffsets(page) : { pageX: NaN, pageY: NaN };
  const x = pageX + (box?.x ?? NaN);
  const y = pageY + (box?.y ?? NaN);
  // Only its part right of and below the document's origin can be captured; a box under a pixel is given one.
  const clip = { x: Math.max(0, x), y: Math.max(0, y), width: (box?.width ?? 0) + Math.min(0, x), height: (box?.height ?? 0) + Math.min(0, y) };
  if (![clip.x, clip.y, clip.width, clip.height].every(Number.isFinite) || clip.width <= 0 || clip.height <= 0) {
    throw new GlanceError(
      'ENOTFOUNDELEMENT',
      `No visible element matched \`screenshot.element\` "${selector}" within ${waitMs} ms of the page loading.`,
      { data: { 'screenshot.element': 'matched no visible element' } },
    );
  }
  return { ...clip, width: Math.max(1, clip.width), height: Math.max(1, clip.height) };
}

async function scrollOffsets(page: Page): Promise<{ pageX: number; pageY: number }> {
  const session = await glanceSession(page);
  const { cssVisualViewport } = await session.send('Page.getLayoutMetrics');
  return cssVisualViewport;
}

/**
 * A capture as Chromium made it (`raw`), and the answer's image: `final` waits for the encoding sharp began at once
 * on libuv's pool, so the page and its slot need not wait for it (the caller calls it once the page is done).
 */
export interface Captured {
  readonly raw: Screenshot;
  readonly final: () => Promise<Screenshot>;
}

export async function screenshot(open: OpenPage, options: ScreenshotOptions, viewport: Viewport, budget: Budget): Promise<Captured> {
  const { page } = open;
  const scale = viewport.deviceScaleFactor;
  const { widest, tallest } = captureBounds(options, scale);
  let capture: PuppeteerScreenshotOptions = encoding(options);
  if (options.element) {
    const clip = await elementClip(open, options.element, budget);
    clip.width = Math.min(clip.width, widest);
    clip.height = Math.min(clip.height, tallest(clip.width));
    await settle(open, budget, clip.y, clip.y + clip.height);
    capture = { ...capture, clip, captureBeyondViewport: true };
  } else if (options.fullPage) {
    const maxHeight = tallest(viewport.width);
    const measured = (await hydrate(open, maxHeight, budget)) ?? Number(await page.evaluate(inPage(TOP_AND_HEIGHT)));
    // Measured by the page's own script, which may redefine Math.max: anything but a height of a pixel or more is none.
    const height = Math.min(Number.isFinite(measured) && measured >= 1 ? measured : viewport.height, maxHeight);
    await settle(open, budget, 0, height);
    capture = { ...capture, clip: { x: 0, y: 0, width: viewport.width, height }, captureBeyondViewport: true };
  } else {
    await settle(open, budget);
  }
  open.phase = 'while capturing the screenshot';
  const captured = Buffer.from(await page.screenshot(capture));
  const size = rasterSize(captured);
  if (!size) throw new Error('Chromium returned an image whose size cannot be read');
  // An overlay encodes the framed image itself (lib/browser/overlay.ts); a plain WebP is encoded here.
  const raw: Screenshot = { body: captured, type: options.overlay ? 'png' : options.type, ...size, deviceScaleFactor: viewport.deviceScaleFactor };
  if (options.overlay || options.type !== 'webp') return { raw, final: async () => raw };
  if (Math.max(size.width, size.height) > WEBP_MAX_PIXELS) throw tooLargeForWebp(`this capture is ${size.width}×${size.height}`);
  const encoded = toWebp(raw, options);
  encoded.catch(() => undefined);
  return { raw, final: () => encoded };
}

/** WebP's largest side (libwebp's limit). */
export const WEBP_MAX_PIXELS = 16_383;

/**
 * The widest capture (CSS px) and the tallest for a width: each side within FULL_PAGE_MAX_PIXELS (WebP's largest side
 * for a WebP) and the area within MAX_DEVICE_AREA — for the image answered, so a frame's title bar and margins
 * (lib/browser/overlay/frame.ts) are counted in.
 */
function captureBounds(options: ScreenshotOptions, scale: number): { widest: number; tallest: (width: number) => number } {
  const limit = options.type === 'webp' ? WEBP_MAX_PIXELS : FULL_PAGE_MAX_PIXELS;
  const frame = (deviceWidth: number) => (options.overlay ? frameGeometry(options.overlay, scale, deviceWidth) : { bar: 0, margin: 0 });
  // A margin never shrinks as the width grows: a capture narrower by the margins of one `limit` wide fits with its own.
  const widestDevice = limit - 2 * frame(limit).margin;
  return {
    widest: Math.max(1, Math.floor(widestDevice / scale)),
    tallest: (width: number): number => {
      const deviceWidth = width * scale;
      const { bar, margin } = frame(Math.ceil(deviceWidth));
      const height = Math.min(limit, MAX_DEVICE_AREA / (deviceWidth + 2 * margin)) - bar - 2 * margin;
      return Math.max(1, Math.floor(height / scale));
    },
  };
}

export const tooLargeForWebp = (what: string): GlanceError =>
  invalidParam('screenshot.type', `WebP holds at most ${WEBP_MAX_PIXELS} pixels a side and ${what}: ask for png or jpeg, or a narrower viewport`);

/**
 * Refuses before any page opens a WebP that the viewport alone makes too large (the capture's own size is checked
 * again once it is made: an element's box or a page's height is known only then). Device pixels are rounded down:
 * only what Chromium certainly makes too large is refused here.
 */
export function checkWebpViewport(options: ScreenshotOptions, viewport: Viewport): void {
  if (options.type !== 'webp' || options.element) return;
  const scale = viewport.deviceScaleFactor;
  const captured = Math.floor(viewport.width * scale);
  const { bar, margin } = options.overlay ? frameGeometry(options.overlay, scale, captured) : { bar: 0, margin: 0 };
  const width = captured + 2 * margin;
  const height = options.fullPage ? 0 : Math.floor(viewport.height * scale) + bar + 2 * margin;
  if (Math.max(width, height) > WEBP_MAX_PIXELS) {
    throw tooLargeForWebp(`this viewport${options.overlay ? ', framed,' : ''} is ${Math.max(width, height)} device pixels ${width >= height ? 'wide' : 'high'}`);
  }
}

async function toWebp(raw: Screenshot, { quality }: ScreenshotOptions): Promise<Screenshot> {
  // Chromium's own image, already bounded (FULL_PAGE_MAX_PIXELS, clampViewport): sharp's input cap is not for it.
  const image = (await loadSharp())(raw.body, { limitInputPixels: false });
  let body: Buffer;
  try {
    body = await encode(image, { type: 'webp', quality });
  } catch (error) {
    throw new GlanceError('EFATAL', `The capture could not be encoded as WebP: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  release(raw.body);
  return { ...raw, body, type: 'webp' };
}

/** Chromium's words for a page range it cannot print. */
const BAD_RANGE = /page range/i;

/** The paper: the format's, or a custom width and height (Puppeteer lets a format override both, so it is left out;
 *  a side not given is the format's). */
function paper(options: PdfOptions): { format: PdfOptions['format'] } | { width: string; height: string } {
  if (options.width === undefined && options.height === undefined) return { format: options.format };
  const size = PAPER_INCHES[options.format];
  return { width: options.width ?? `${size.width}in`, height: options.height ?? `${size.height}in` };
}

export async function printPdf(open: OpenPage, options: PdfOptions, budget: Budget): Promise<{ body: Buffer }> {
  open.phase = 'while printing the PDF';
  const budgetMs = Math.max(1, budget.remaining());
  try {
    const body = await open.page.pdf({
      ...paper(options),
      margin: options.margin,
      scale: options.scale,
      landscape: options.landscape,
      pageRanges: options.pageRanges ?? '',
      printBackground: options.printBackground,
      timeout: budgetMs,
    });
    return { body: Buffer.from(body) };
  } catch (error) {
    if (isTimeout(error)) throw browserTimeout(open.subject, open.phase, budgetMs, error);
    if (error instanceof Error && BAD_RANGE.test(error.message)) {
      throw new GlanceError(
        'EPAGERANGE',
        `The \`pdf.pageRanges\` parameter is outside the printed document: "${options.pageRanges}" selects no page of it (${error.message}). Ask for pages the document has, or leave the parameter out to print all of it.`,
        { data: { 'pdf.pageRanges': 'outside the printed document' }, cause: error },
      );
    }
    throw error;
  }
}
