/**
 * `screenshot.overlay` (docs/CONTRACT.md §5): the capture framed in a browser window drawn by Glance and/or set on a
 * background, composed around the captured pixels rather than rendered by a browser (which cost ~500 ms: a second
 * document holding the capture as a data: URL, re-rasterised and re-encoded by Chromium). The capture is copied 1:1,
 * never resampled, whatever the device scale factor; the artwork is drawn at that scale: the title bar is an SVG
 * rasterised by librsvg once per theme, scale and width (lib/browser/overlay/frame.ts), a colour or linear gradient
 * is painted directly (lib/browser/overlay/paint.ts), and window, shadows and background are laid together on raw
 * pixels (lib/browser/overlay/compose.ts). Only what these cannot paint — radial and conic gradients, colour syntax
 * librsvg does not read, SVG or ICO background images — is painted by Chromium, in a self-contained document (a
 * CSP forbids every load) that `renderHtml` renders.
 */
import type { OverlayOptions as SharpOverlay } from 'sharp';
import { encode, hasAlpha, type Encoding } from '../media/encode.ts';
import { loadSharp, release, type SharpFactory } from '../media/sharp.ts';
import { decodable, isDecoded, MAX_DECODE_PIXELS } from '../media/decode-bounds.ts';
import { sniff } from '../media/sniff.ts';
import type { OverlayBrowser, OverlayOptions } from '../query/options.ts';
import { tooLargeForWebp, WEBP_MAX_PIXELS } from './capture.ts';
import { cssBackground, isImageUrl, refused } from './overlay/background.ts';
import { frameGeometry, RADIUS, titleBar, windowShadow } from './overlay/frame.ts';
import { dropAlpha, isOpaque, layWindow, shade, type Pixels, type ShadowSpec, type WindowPixels } from './overlay/compose.ts';
import { paintCss } from './overlay/paint.ts';

export { imageFetcher } from './overlay/background.ts';

export interface OverlayDeps {
  /** Renders an HTML document to a PNG at the given viewport (the browser module provides this). */
  renderHtml(html: string, viewport: { width: number; height: number; deviceScaleFactor: number }): Promise<Buffer>;
  /** Fetches the background image under the address rules; returns bytes and content type. */
  fetchImage(url: string): Promise<{ body: Buffer; contentType: string }>;
}

export interface Capture {
  body: Buffer;
  type: Encoding['type'];
  width: number;
  height: number;
}

/** Title bars kept rasterised (theme × scale × width); a few devices cover nearly every request. */
const BAR_CACHE_SIZE = 8;

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** A title bar's pixels: RGBA, and RGB as well when it is opaque (to be copied row by row onto a background). */
interface BarPixels {
  readonly rgba: Buffer;
  readonly rgb: Buffer | undefined;
}
const bars = new Map<string, Promise<BarPixels>>();
/**
 * Backgrounds with their shadows, before the window (RGB at the output's size, ~19 MB at the default device):
 * a caller's overlay is usually the same on every capture, and painting it is most of the overlay's cost.
 */
const STAGE_CACHE_SIZE = 2;
const stages = new Map<string, Promise<Buffer>>();
/**
 * The largest background kept (and canvas of its size reused). A framed full page's reaches ~126 MB (2970 × 14 122
 * RGB): two kept and two spare canvases held half a gigabyte in Node after a few such captures, beside Chromium.
 */
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

/**
 * Canvases of the kept backgrounds' size, reused: a fresh 19 MB buffer per capture makes V8 account that much
 * external memory each time, which brings on full garbage collections of the whole heap (adblock engine included).
 */
const MAX_SPARE_CANVASES = 2;
const spareCanvases: Buffer[] = [];

function borrowCanvas(length: number): Buffer {
  const index = spareCanvases.findIndex((canvas) => canvas.length === length);
  return index === -1 ? Buffer.allocUnsafe(length) : spareCanvases.splice(index, 1)[0]!;
}

function returnCanvas(canvas: Buffer): void {
  if (spareCanvases.length >= MAX_SPARE_CANVASES) spareCanvases.shift();
  spareCanvases.push(canvas);
}

/** The title bar's pixels, rasterised once per theme, scale and width. */
function barPixels(sharp: SharpFactory, theme: OverlayBrowser, scale: number, width: number): { height: number; pixels: Promise<BarPixels> } {
  const { height, svg } = titleBar(theme, scale, width);
  const key = `${theme} ${scale} ${width}`;
  let pixels = bars.get(key);
  if (!pixels) {
    pixels = sharp(Buffer.from(svg))
      .ensureAlpha()
      .raw()
      .toBuffer()
      .then((rgba) => ({ rgba, rgb: isOpaque(rgba) ? dropAlpha(rgba) : undefined }));
    pixels.catch(() => bars.delete(key));
    if (bars.size >= BAR_CACHE_SIZE) bars.delete(bars.keys().next().value!);
    bars.set(key, pixels);
  }
  return { height, pixels };
}

const svgImage = (width: number, height: number, body: string): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

/**
 * Tiles clearing the two top corners outside a quarter disc of radius `r` (blend `dest-out`: libvips lays a small
 * overlay on a transparent one of the base's size, so only a blend that keeps what transparency covers can be tiled).
 */
function corners(r: number, width: number): SharpOverlay[] {
  const tile = (cx: number, cy: number) =>
    svgImage(r, r, `<path fill-rule="evenodd" d="M0 0H${r}V${r}H0Z M${cx + r} ${cy}A${r} ${r} 0 1 0 ${cx - r} ${cy}A${r} ${r} 0 1 0 ${cx + r} ${cy}Z"/>`);
  return [
    { input: tile(r, r), left: 0, top: 0, blend: 'dest-out' },
    { input: tile(0, r), left: width - r, top: 0, blend: 'dest-out' },
  ];
}

/**
 * The window's parts: title bar and capture. RGBA when `rgba` (a window alone is the whole image, its corners
 * transparent); else each part as decoded — Chromium's PNG is RGB unless `omitBackground` let it be transparent.
 */
async function windowParts(sharp: SharpFactory, capture: Capture, theme: OverlayBrowser | undefined, scale: number, rgba: boolean): Promise<WindowPixels> {
  const bar = theme ? barPixels(sharp, theme, scale, capture.width) : undefined;
  const decoded = rgba ? sharp(capture.body).ensureAlpha() : sharp(capture.body).toColourspace('srgb');
  const [barData, captured] = await Promise.all([bar?.pixels, decoded.raw().toBuffer({ resolveWithObject: true })]);
  const barPart: Pixels | undefined = barData && (rgba || !barData.rgb ? { data: barData.rgba, channels: 4 } : { data: barData.rgb, channels: 3 });
  const channels = captured.info.channels === 3 ? 3 : 4;
  return { bar: barPart, capture: { data: captured.data, channels }, width: capture.width, height: capture.height + (bar?.height ?? 0) };
}

/** A window alone (`data`: its RGBA rows), its top corners cleared to transparency when `radius` > 0: the whole image. */
function windowAlone(sharp: SharpFactory, data: Buffer, window: WindowPixels, radius: number) {
  const raw = { width: window.width, height: window.height, channels: 4 as const };
  return radius > 0 ? sharp(data, { raw }).composite(corners(radius, window.width)) : sharp(data, { raw });
}

const dataUrl = (type: string, body: Buffer): string => `data:${type};base64,${body.toString('base64')}`;

/** A document whose whole page is `body`'s background, for Chromium to paint. */
const backgroundDocument = (style: string, html: string, width: number, height: number): string =>
  `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">` +
  `<style>html, body { margin: 0; padding: 0; } body { width: ${width}px; height: ${height}px; overflow: hidden; ${style} }` +
  ` img { display: block; width: 100%; height: 100%; object-fit: cover; }</style></head><body>${html}</body></html>`;

/** The background, `width` × `height`, RGB: what the window stands on. */
async function backdrop(sharp: SharpFactory, value: string, width: number, height: number, deps: OverlayDeps): Promise<Buffer> {
  // Chromium may draw it smaller than asked (its viewport is bounded, lib/browser/devices.ts): scaled to the frame.
  const inBrowser = async (style: string, html = '') =>
    sharp(await deps.renderHtml(backgroundDocument(style, html, width, height), { width, height, deviceScaleFactor: 1 }))
      .resize(width, height, { fit: 'fill' })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer();
  if (!isImageUrl(value)) {
    const css = cssBackground(value);
    const painted = await paintCss(sharp, css, width, height);
    if (!painted) return inBrowser(`background: ${css};`);
    return sharp(painted.data, { raw: { width, height, channels: 4 } }).removeAlpha().raw().toBuffer();
  }
  const image = await deps.fetchImage(value);
  // The type lands in an attribute when Chromium draws it: only a plain media type may.
  if (!/^image\/[a-z0-9.+-]+$/i.test(image.contentType)) throw refused(`${value} is not an image`);
  const type = sniff(image.body);
  // Other images (SVG, ICO, BMP) are drawn by Chromium, as an <img> always was.
  if (!isDecoded(type)) {
    return inBrowser('', `<img alt="" decoding="sync" src="${dataUrl(image.contentType, image.body)}">`);
  }
  const header = await sharp(image.body).metadata().catch(() => undefined);
  if (!header || !decodable(type, header.width ?? 0, header.height ?? 0)) {
    throw refused(`the background image ${value} is larger than this service decodes (${header?.width ?? 0} × ${header?.height ?? 0} pixels)`);
  }
  try {
    // As `object-fit: cover` drew it, on the page's white.
    return await sharp(image.body, { limitInputPixels: MAX_DECODE_PIXELS[type] })
      .resize(width, height, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer();
  } catch (error) {
    throw refused(`the background image ${value} could not be decoded (${(error as Error).message})`);
  }
}

/** The window's outline and shadows in raw colour (lib/browser/overlay/frame.ts). */
function shadowSpecs(theme: OverlayBrowser | undefined, scale: number): ShadowSpec[] {
  return windowShadow(theme, scale).map(({ color, ...shadow }) => {
    const [r = 0, g = 0, b = 0, a = 1] = (/rgba\(([^)]*)\)/.exec(color)?.[1] ?? '').split(',').map(Number);
    return { ...shadow, rgba: [r, g, b, a] as const };
  });
}

/** Returns the framed capture (a new Capture in the output's type, with the final image's pixel size). */
export async function applyOverlay(
  capture: Capture,
  overlay: OverlayOptions,
  deviceScaleFactor: number,
  output: Encoding,
  deps: OverlayDeps,
): Promise<Capture> {
  return (await prepareOverlay(capture, overlay, deviceScaleFactor, output, deps))();
}

/**
 * The overlay in two halves: what may need the browser (a background only Chromium paints) or the network (a
 * background image) now, and the composing, which needs neither: started at once, it goes on while the page closes
 * (sharp's decoding and encoding on libuv's pool), and the returned function waits for it — called once the page is
 * closed, so the next page need not wait for it.
 */
export async function prepareOverlay(
  capture: Capture,
  overlay: OverlayOptions,
  deviceScaleFactor: number,
  output: Encoding,
  deps: OverlayDeps,
): Promise<() => Promise<Capture>> {
  const { browser: theme, background: value } = overlay;
  if (!theme && value === undefined) return async () => capture;
  // Refused CSS is refused before any work (and before the network, for an image).
  if (value !== undefined && !isImageUrl(value)) cssBackground(value);
  const sharp = await loadSharp();
  const px = (design: number): number => Math.max(1, Math.round(design * deviceScaleFactor));
  const staged = value !== undefined;
  // A window alone is the whole image: its top corners can only be round where the format has transparency.
  const radius = staged || hasAlpha(output.type) ? px(RADIUS) : 0;
  const { bar, margin } = frameGeometry(overlay, deviceScaleFactor, capture.width);
  const windowWidth = capture.width;
  const windowHeight = capture.height + bar;
  const size = { width: windowWidth + 2 * margin, height: windowHeight + 2 * margin };
  // The capture was bounded with its frame (capture.ts), but a clip rounded to whole pixels may pass WebP's largest
  // side by one: refused before any drawing, not failed in the encode.
  if (output.type === 'webp' && Math.max(size.width, size.height) > WEBP_MAX_PIXELS) {
    throw tooLargeForWebp(`this capture framed is ${size.width}×${size.height}`);
  }
  const parts = windowParts(sharp, capture, theme, deviceScaleFactor, !staged);
  // Awaited by the composing only: a failure before it (a refused background) must not go unhandled.
  parts.catch(() => undefined);
  if (!staged) {
    return started(async () => {
      const window = await parts;
      const data = window.bar ? Buffer.concat([window.bar.data, window.capture.data]) : window.capture.data;
      const body = await encode(windowAlone(sharp, data, window, radius), output);
      release(window.capture.data);
      release(data);
      return { body, type: output.type, width: window.width, height: window.height };
    });
  }
  const box = { x: margin, y: margin, width: windowWidth, height: windowHeight, radius };
  const shadows = shadowSpecs(theme, deviceScaleFactor);
  let ground: Buffer;
  // Kept between captures only up to MAX_KEPT_BYTES: a framed full page's is painted each time, never held.
  const kept = !isImageUrl(value) && size.width * size.height * 3 <= MAX_KEPT_BYTES;
  if (!kept) {
    ground = await backdrop(sharp, value, size.width, size.height, deps);
    shade(ground, size.width, size.height, box, shadows);
  } else {
    // A CSS background with its shadows depends on nothing the page drew: painted once per look and size.
    const key = `${theme} ${deviceScaleFactor} ${size.width}×${size.height} ${value}`;
    let stage = stages.get(key);
    if (!stage) {
      stage = backdrop(sharp, value, size.width, size.height, deps).then((painted) => {
        shade(painted, size.width, size.height, box, shadows);
        return painted;
      });
      stage.catch(() => stages.delete(key));
      if (stages.size >= STAGE_CACHE_SIZE) stages.delete(stages.keys().next().value!);
      stages.set(key, stage);
    }
    ground = await stage;
  }
  return started(async () => {
    const window = await parts;
    // A kept background is copied, never drawn on.
    const canvas = kept ? borrowCanvas(ground.length) : ground;
    if (kept) ground.copy(canvas);
    layWindow(canvas, size.width, window, box);
    release(window.capture.data);
    const encoded = encode(sharp(canvas, { raw: { ...size, channels: 3 } }), output);
    const body = await encoded.finally(() => (kept ? returnCanvas(canvas) : release(canvas)));
    return { body, type: output.type, ...size };
  });
}

/** `work` begun now; the function answers its result (a failure is the caller's once it asks, never unhandled). */
function started<T>(work: () => Promise<T>): () => Promise<T> {
  const result = work();
  result.catch(() => undefined);
  return () => result;
}
