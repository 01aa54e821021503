/**
 * `screenshot.overlay` (docs/CONTRACT.md §5): the capture framed in a browser window drawn by Glance and/or set on a
 * background. One self-contained HTML document is rendered: the capture and any background image are inlined as
 * data: URLs and a Content-Security-Policy forbids every other load, so the render touches no network.
 *
 * The document is laid out in device pixels and rendered at a scale factor of 1, with the artwork scaled by the
 * capture's own factor instead: the capture is drawn 1:1 (never resampled, whatever the factor) and the output
 * size is exactly the viewport, with no rounding left to Chromium.
 */
import { GlanceError } from '../errors.ts';
import type { OverlayOptions } from '../query/options.ts';
import { cssBackground, isImageUrl } from './_old/background.ts';
import { RADIUS, titleBar, windowShadow } from './_old/frame.ts';

export { imageFetcher } from './_old/background.ts';

export interface OverlayDeps {
  /** Renders an HTML document to an image at the given viewport (the browser helper provides this). */
  renderHtml(
    html: string,
    viewport: { width: number; height: number; deviceScaleFactor: number },
    options: { type: 'png' | 'jpeg'; quality?: number; omitBackground?: boolean },
  ): Promise<Buffer>;
  /** Fetches the background image under the address rules; returns bytes and content type. */
  fetchImage(url: string): Promise<{ body: Buffer; contentType: string }>;
}

export interface Capture {
  body: Buffer;
  type: 'png' | 'jpeg';
  width: number;
  height: number;
}

/** Margin around the window on a background: 8% of the window's width, at least 40 CSS pixels. */
const MARGIN_SHARE = 0.08;
const MARGIN_MIN = 40;

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

const dataUrl = (type: string, body: Buffer): string => `data:${type};base64,${body.toString('base64')}`;

/** The background layer: an inlined image (`cover`), or a colour/gradient as the body's own background. */
async function background(value: string, deps: OverlayDeps): Promise<{ css: string; html: string }> {
  if (!isImageUrl(value)) return { css: `background: ${cssBackground(value)};`, html: '' };
  const image = await deps.fetchImage(value);
  // The type lands in an attribute: only a plain media type may.
  if (!/^image\/[a-z0-9.+-]+$/i.test(image.contentType)) {
    throw new GlanceError('EINVALOVERLAYBG', `The overlay background ${value} is not an image.`);
  }
  const src = dataUrl(image.contentType, image.body);
  return { css: '', html: `<img class="backdrop" alt="" decoding="sync" src="${src}">` };
}

/** Returns the framed capture (a new Capture with the final image's pixel size). */
export async function applyOverlay(
  capture: Capture,
  overlay: OverlayOptions,
  deviceScaleFactor: number,
  quality: number | undefined,
  deps: OverlayDeps,
): Promise<Capture> {
  const { browser: theme, background: backgroundValue } = overlay;
  if (!theme && backgroundValue === undefined) return capture;
  const px = (design: number): number => Math.max(1, Math.round(design * deviceScaleFactor));

  const bar = theme ? titleBar(theme, deviceScaleFactor, capture.width) : undefined;
  const windowWidth = capture.width;
  const windowHeight = capture.height + (bar?.height ?? 0);
  const stage = backgroundValue === undefined ? undefined : await background(backgroundValue, deps);
  const margin = stage ? Math.max(px(MARGIN_MIN), Math.round(windowWidth * MARGIN_SHARE)) : 0;
  const width = windowWidth + 2 * margin;
  const height = windowHeight + 2 * margin;

  // A window alone is the whole image: its top corners can only be round where the format has transparency.
  const radius = stage || capture.type === 'png' ? px(RADIUS) : 0;
  const corners = stage ? `${radius}px` : `${radius}px ${radius}px 0 0`;
  const css = `
html, body { margin: 0; padding: 0; }
body { position: relative; width: ${width}px; height: ${height}px; overflow: hidden; ${stage?.css ?? ''} }
.backdrop { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; display: block; }
.window { position: absolute; left: ${margin}px; top: ${margin}px; width: ${windowWidth}px;
  height: ${windowHeight}px; overflow: hidden; border-radius: ${corners};
  ${stage ? `box-shadow: ${windowShadow(theme, deviceScaleFactor)};` : ''} }
.capture { display: block; width: ${capture.width}px; height: ${capture.height}px; }
${bar?.css ?? ''}`;

  const html =
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}"><style>${css}</style></head>` +
    `<body>${stage?.html ?? ''}<div class="window">${bar?.html ?? ''}` +
    `<img class="capture" alt="" decoding="sync" src="${dataUrl(`image/${capture.type}`, capture.body)}">` +
    `</div></body></html>`;

  const body = await deps.renderHtml(
    html,
    { width, height, deviceScaleFactor: 1 },
    {
      type: capture.type,
      ...(capture.type === 'jpeg' && quality !== undefined ? { quality } : {}),
      omitBackground: !stage && capture.type === 'png',
    },
  );
  return { body, type: capture.type, width, height };
}
