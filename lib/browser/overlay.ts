/**
 * `screenshot.overlay` (docs/CONTRACT.md §5): the capture framed in a browser window drawn by Glance and/or set on a
 * background, composed with sharp (libvips) around the captured pixels: no page, no navigation, and the capture
 * is copied 1:1 (never resampled, whatever the device scale factor). The artwork is drawn at the capture's own
 * scale: the title bar is an SVG rasterised once per theme, scale and width (lib/browser/overlay/frame.ts), the
 * shadows are blurred at a quarter of the size and scaled up (a blur has no detail to lose), and a colour or
 * linear gradient is painted directly (lib/browser/overlay/paint.ts). Only what sharp cannot draw — radial and
 * conic gradients, colour syntax librsvg does not read, SVG or ICO background images — is painted by Chromium, in
 * a self-contained document (a CSP forbids every load) that `renderHtml` renders.
 */
import type { Sharp, OverlayOptions as SharpOverlay } from 'sharp';
import { encode, hasAlpha, type Encoding } from '../media/encode.ts';
import { loadSharp, type SharpFactory } from '../media/sharp.ts';
import { sniff } from '../media/sniff.ts';
import type { OverlayBrowser, OverlayOptions } from '../query/options.ts';
import { cssBackground, isImageUrl, refused } from './overlay/background.ts';
import { RADIUS, titleBar, windowShadow, type Shadow } from './overlay/frame.ts';
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

/** Margin around the window on a background: 8% of the window's width, at least 40 CSS pixels. */
const MARGIN_SHARE = 0.08;
const MARGIN_MIN = 40;
/** Shadows are blurred at 1/SHADOW_SCALE of the image's size. */
const SHADOW_SCALE = 4;
/** Title bars kept rasterised (theme × scale × width); a few devices cover nearly every request. */
const BAR_CACHE_SIZE = 8;
/** A background image larger than this is refused rather than decoded. */
const MAX_BACKGROUND_PIXELS = 40_000_000;
/** Background images libvips decodes here; others (SVG, ICO, BMP) are drawn by Chromium, as an <img> always was. */
const DECODED = new Set(['png', 'jpg', 'webp', 'gif', 'avif']);

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";
const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

const bars = new Map<string, Promise<Buffer>>();

/** The title bar's RGBA pixels, rasterised once per theme, scale and width. */
function barPixels(sharp: SharpFactory, theme: OverlayBrowser, scale: number, width: number): { height: number; pixels: Promise<Buffer> } {
  const { height, svg } = titleBar(theme, scale, width);
  const key = `${theme} ${scale} ${width}`;
  let pixels = bars.get(key);
  if (!pixels) {
    pixels = sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
    pixels.catch(() => bars.delete(key));
    if (bars.size >= BAR_CACHE_SIZE) bars.delete(bars.keys().next().value!);
    bars.set(key, pixels);
  }
  return { height, pixels };
}

const svgImage = (width: number, height: number, body: string): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

/**
 * Tiles clearing each corner outside a quarter disc of radius `r` (blend `dest-out`: libvips lays a small overlay
 * on a transparent one of the base's size, so only a blend that keeps what transparency covers can be tiled).
 */
function corners(r: number, width: number, height: number, bottom: boolean): SharpOverlay[] {
  const tile = (cx: number, cy: number) =>
    svgImage(r, r, `<path fill-rule="evenodd" d="M0 0H${r}V${r}H0Z M${cx + r} ${cy}A${r} ${r} 0 1 0 ${cx - r} ${cy}A${r} ${r} 0 1 0 ${cx + r} ${cy}Z"/>`);
  const tiles: SharpOverlay[] = [
    { input: tile(r, r), left: 0, top: 0, blend: 'dest-out' },
    { input: tile(0, r), left: width - r, top: 0, blend: 'dest-out' },
  ];
  if (bottom) {
    tiles.push({ input: tile(r, 0), left: 0, top: height - r, blend: 'dest-out' });
    tiles.push({ input: tile(0, 0), left: width - r, top: height - r, blend: 'dest-out' });
  }
  return tiles;
}

/** The window: title bar above the capture, corners rounded; RGBA pixels. */
async function windowPixels(sharp: SharpFactory, capture: Capture, theme: OverlayBrowser | undefined, scale: number, radius: number, roundBottom: boolean) {
  const bar = theme ? barPixels(sharp, theme, scale, capture.width) : undefined;
  const height = capture.height + (bar?.height ?? 0);
  const layers: SharpOverlay[] = [];
  if (bar) layers.push({ input: await bar.pixels, raw: { width: capture.width, height: bar.height, channels: 4 }, left: 0, top: 0 });
  if (radius > 0) layers.push(...corners(radius, capture.width, height, roundBottom));
  let image = sharp(capture.body).ensureAlpha();
  if (bar) image = image.extend({ top: bar.height, background: TRANSPARENT });
  const pixels = await image.composite(layers).raw().toBuffer();
  return { pixels, width: capture.width, height };
}

/**
 * The window's box-shadows (CSS semantics: offset, spread, a Gaussian of σ = blur / 2, never under the box
 * itself) on a transparent canvas of the whole image, as an overlay layer.
 */
async function shadowLayer(sharp: SharpFactory, shadows: readonly Shadow[], box: { x: number; y: number; width: number; height: number }, radius: number, size: { width: number; height: number }): Promise<SharpOverlay> {
  const small = { width: Math.ceil(size.width / SHADOW_SCALE), height: Math.ceil(size.height / SHADOW_SCALE) };
  const rect = (shadow: Shadow, extra = '') =>
    `<rect x="${box.x + shadow.x - shadow.spread}" y="${box.y + shadow.y - shadow.spread}" width="${box.width + 2 * shadow.spread}"` +
    ` height="${box.height + 2 * shadow.spread}" rx="${radius + shadow.spread}" fill="${shadow.color}"${extra}/>`;
  const scaled = (body: string) =>
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${small.width}" height="${small.height}" viewBox="0 0 ${small.width * SHADOW_SCALE} ${small.height * SHADOW_SCALE}">${body}</svg>`);
  // Box-shadows paint the first on top: blurred ones bottom-up, then the crisp ones (the outline) at full size.
  const blurred = shadows.filter((shadow) => shadow.blur > 0).reverse();
  const layers = await Promise.all(
    blurred.map((shadow) => sharp(scaled(rect(shadow))).blur(Math.max(0.3, shadow.blur / 2 / SHADOW_SCALE)).raw().toBuffer()),
  );
  const raw = { ...small, channels: 4 as const };
  const hole = scaled(`<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="${radius}"/>`);
  const combined = await sharp({ create: { ...small, channels: 4, background: TRANSPARENT } })
    .composite([...layers.map((input) => ({ input, raw })), { input: hole, blend: 'dest-out' }])
    .raw()
    .toBuffer();
  const full = await sharp(combined, { raw }).resize(size.width, size.height, { fit: 'fill' }).raw().toBuffer();
  return { input: full, raw: { ...size, channels: 4 } };
}

/** The outline shadows (no blur) as crisp bands around the box, drawn beneath the window's own edge. */
function outlines(shadows: readonly Shadow[], box: { x: number; y: number; width: number; height: number }, radius: number): SharpOverlay[] {
  return shadows
    .filter((shadow) => shadow.blur === 0 && shadow.x === 0 && shadow.y === 0)
    .map((shadow) => {
      const s = shadow.spread;
      const outer = { width: box.width + 2 * s, height: box.height + 2 * s };
      const path =
        `<path fill-rule="evenodd" fill="${shadow.color}" d="M0 ${radius + s}a${radius + s} ${radius + s} 0 0 1 ${radius + s} ${-(radius + s)}` +
        `h${outer.width - 2 * (radius + s)}a${radius + s} ${radius + s} 0 0 1 ${radius + s} ${radius + s}v${outer.height - 2 * (radius + s)}` +
        `a${radius + s} ${radius + s} 0 0 1 ${-(radius + s)} ${radius + s}h${-(outer.width - 2 * (radius + s))}a${radius + s} ${radius + s} 0 0 1 ${-(radius + s)} ${-(radius + s)}z` +
        `M${s} ${s + radius}a${radius} ${radius} 0 0 1 ${radius} ${-radius}h${box.width - 2 * radius}a${radius} ${radius} 0 0 1 ${radius} ${radius}` +
        `v${box.height - 2 * radius}a${radius} ${radius} 0 0 1 ${-radius} ${radius}h${-(box.width - 2 * radius)}a${radius} ${radius} 0 0 1 ${-radius} ${-radius}z"/>`;
      return { input: svgImage(outer.width, outer.height, path), left: box.x - s, top: box.y - s };
    });
}

const dataUrl = (type: string, body: Buffer): string => `data:${type};base64,${body.toString('base64')}`;

/** A document whose whole page is `body`'s background, for Chromium to paint. */
const backgroundDocument = (style: string, html: string, width: number, height: number): string =>
  `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">` +
  `<style>html, body { margin: 0; padding: 0; } body { width: ${width}px; height: ${height}px; overflow: hidden; ${style} }` +
  ` img { display: block; width: 100%; height: 100%; object-fit: cover; }</style></head><body>${html}</body></html>`;

/** The background, `width` × `height`, opaque: what the window stands on. */
async function backdrop(sharp: SharpFactory, value: string, width: number, height: number, deps: OverlayDeps): Promise<Sharp> {
  const inBrowser = async (style: string, html = '') =>
    sharp(await deps.renderHtml(backgroundDocument(style, html, width, height), { width, height, deviceScaleFactor: 1 })).removeAlpha();
  if (!isImageUrl(value)) {
    const css = cssBackground(value);
    const painted = await paintCss(sharp, css, width, height);
    return painted ? sharp(painted.data, { raw: { width, height, channels: 3 } }) : inBrowser(`background: ${css};`);
  }
  const image = await deps.fetchImage(value);
  // The type lands in an attribute when Chromium draws it: only a plain media type may.
  if (!/^image\/[a-z0-9.+-]+$/i.test(image.contentType)) throw refused(`${value} is not an image`);
  const type = sniff(image.body);
  if (!type || !DECODED.has(type)) {
    return inBrowser('', `<img alt="" decoding="sync" src="${dataUrl(image.contentType, image.body)}">`);
  }
  try {
    // As `object-fit: cover` drew it, on the page's white.
    const cover = await sharp(image.body, { limitInputPixels: MAX_BACKGROUND_PIXELS })
      .resize(width, height, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .raw()
      .toBuffer();
    return sharp(cover, { raw: { width, height, channels: 3 } });
  } catch (error) {
    throw refused(`the background image ${value} could not be decoded (${(error as Error).message})`);
  }
}

/** Returns the framed capture (a new Capture in the output's type, with the final image's pixel size). */
export async function applyOverlay(
  capture: Capture,
  overlay: OverlayOptions,
  deviceScaleFactor: number,
  output: Encoding,
  deps: OverlayDeps,
): Promise<Capture> {
  const { browser: theme, background: value } = overlay;
  if (!theme && value === undefined) return capture;
  // Refused CSS is refused before any work (and before the network, for an image).
  if (value !== undefined && !isImageUrl(value)) cssBackground(value);
  const sharp = await loadSharp();
  const px = (design: number): number => Math.max(1, Math.round(design * deviceScaleFactor));
  const staged = value !== undefined;
  // A window alone is the whole image: its top corners can only be round where the format has transparency.
  const radius = staged || hasAlpha(output.type) ? px(RADIUS) : 0;
  const windowWidth = capture.width;
  const windowHeight = capture.height + (theme ? titleBar(theme, deviceScaleFactor, windowWidth).height : 0);
  const margin = staged ? Math.max(px(MARGIN_MIN), Math.round(windowWidth * MARGIN_SHARE)) : 0;
  const size = { width: windowWidth + 2 * margin, height: windowHeight + 2 * margin };
  const [ground, window] = await Promise.all([
    staged ? backdrop(sharp, value, size.width, size.height, deps) : undefined,
    windowPixels(sharp, capture, theme, deviceScaleFactor, radius, staged),
  ]);
  const windowLayer: SharpOverlay = { input: window.pixels, raw: { width: window.width, height: window.height, channels: 4 } };
  if (!ground) {
    const body = await encode(sharp(window.pixels, { raw: windowLayer.raw! }), output);
    return { body, type: output.type, width: window.width, height: window.height };
  }
  const box = { x: margin, y: margin, width: windowWidth, height: windowHeight };
  const shadows = windowShadow(theme, deviceScaleFactor);
  const layers = [
    await shadowLayer(sharp, shadows, box, radius, size),
    ...outlines(shadows, box, radius),
    { ...windowLayer, left: margin, top: margin },
  ];
  const body = await encode(ground.composite(layers), output);
  return { body, type: output.type, ...size };
}
