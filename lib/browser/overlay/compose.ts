/**
 * The window laid on its background with its box-shadows, straight on raw RGBA pixels. libvips composites in
 * floating point over every pixel of every layer (3 full-size layers: ~500 ms at 2970×2090); here only the
 * pixels that are not the window's opaque inside are worked out — the margin and the four rounded corners —
 * and the shadows are computed in closed form rather than blurred:
 * - a box-shadow is the box's shape blurred by a Gaussian of σ = blur / 2 (CSS Backgrounds 3 §7.2). A blurred
 *   rectangle is the product of two 1-D error functions, exact; around rounded corners with σ below the radius,
 *   the error function of the signed distance to the rounded box is used instead (both agree along the sides);
 * - a shadow is never drawn under the box itself (it is clipped to outside the border box);
 * - shapes are anti-aliased by their coverage of each pixel, from the signed distance at its centre.
 * The canvas is RGB, as the image it becomes: an opaque window's rows are copied into it as they were decoded, and
 * sharp encodes it without dropping an alpha channel first (a quarter less memory to write, copy and read).
 */

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly radius: number;
}

export interface ShadowSpec {
  readonly x: number;
  readonly y: number;
  readonly blur: number;
  readonly spread: number;
  readonly rgba: readonly [number, number, number, number];
}

/** Abramowitz & Stegun 7.1.26 (error below 1.5e-7): JavaScript has no erf. */
function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return sign * y;
}

/** Signed distance from a pixel centre to a rounded box (negative inside). */
function distance(px: number, py: number, box: Box): number {
  const r = box.radius;
  const dx = Math.max(box.x + r - px, 0, px - (box.x + box.width - r));
  const dy = Math.max(box.y + r - py, 0, py - (box.y + box.height - r));
  if (dx > 0 || dy > 0) return Math.sqrt(dx * dx + dy * dy) - r;
  // Inside the core: the distance to the nearest side, negative.
  return -Math.min(px - box.x, box.x + box.width - px, py - box.y, box.y + box.height - py);
}

const coverage = (d: number): number => (d <= -0.5 ? 1 : d >= 0.5 ? 0 : 0.5 - d);

/** How much of a Gaussian-blurred 1-D interval [a, b) reaches each pixel centre 0.5 … n − 0.5. */
function profile(n: number, a: number, b: number, sigma: number): Float32Array {
  const out = new Float32Array(n);
  const k = 1 / (sigma * Math.SQRT2);
  for (let i = 0; i < n; i++) out[i] = 0.5 * (erf((i + 0.5 - a) * k) - erf((i + 0.5 - b) * k));
  return out;
}

interface PreparedShadow {
  readonly box: Box;
  readonly sigma: number;
  readonly alpha: number;
  readonly rgb: readonly [number, number, number];
  /** Separable profiles, for a σ at or above the radius (the corner's roundness is lost in the blur). */
  readonly columns: Float32Array | undefined;
  readonly rows: Float32Array | undefined;
  /** Beyond this distance from the shape nothing is left. */
  readonly reach: number;
}

function prepare(shadow: ShadowSpec, window: Box, width: number, height: number): PreparedShadow {
  const box: Box = {
    x: window.x + shadow.x - shadow.spread,
    y: window.y + shadow.y - shadow.spread,
    width: window.width + 2 * shadow.spread,
    height: window.height + 2 * shadow.spread,
    radius: window.radius > 0 ? window.radius + shadow.spread : 0,
  };
  const sigma = shadow.blur / 2;
  const separable = sigma > 0 && sigma >= box.radius;
  return {
    box,
    sigma,
    alpha: shadow.rgba[3],
    rgb: [shadow.rgba[0], shadow.rgba[1], shadow.rgba[2]],
    columns: separable ? profile(width, box.x, box.x + box.width, sigma) : undefined,
    rows: separable ? profile(height, box.y, box.y + box.height, sigma) : undefined,
    reach: sigma > 0 ? 4 * sigma : 0.5,
  };
}

/** The shadow's opacity at pixel (x, y). */
function shadowAt(shadow: PreparedShadow, x: number, y: number): number {
  if (shadow.columns) return shadow.alpha * shadow.columns[x]! * shadow.rows![y]!;
  const d = distance(x + 0.5, y + 0.5, shadow.box);
  if (d >= shadow.reach) return 0;
  if (shadow.sigma === 0) return shadow.alpha * coverage(d);
  return shadow.alpha * 0.5 * (1 - erf(d / (shadow.sigma * Math.SQRT2)));
}

/** Raw pixels as wide as the window: RGB (opaque), or RGBA (blended on what lies under them). */
export interface Pixels {
  readonly data: Buffer;
  readonly channels: 3 | 4;
}

/** The window's pixels: the title bar's rows (if any) above the capture's. */
export interface WindowPixels {
  readonly bar: Pixels | undefined;
  readonly capture: Pixels;
  readonly width: number;
  readonly height: number;
}

/** An RGBA image's colour channels alone. */
export function dropAlpha(rgba: Buffer): Buffer {
  const rgb = Buffer.allocUnsafe((rgba.length / 4) * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    rgb[o] = rgba[i]!;
    rgb[o + 1] = rgba[i + 1]!;
    rgb[o + 2] = rgba[i + 2]!;
  }
  return rgb;
}

export function isOpaque(rgba: Buffer): boolean {
  const words = new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >> 2);
  // Little- or big-endian, alpha is the byte that an all-ones mask over every other byte leaves out.
  const alpha = new Uint32Array(new Uint8Array([0, 0, 0, 255]).buffer)[0]!;
  // `>>> 0`: `&` answers a signed 32-bit integer, the mask is unsigned.
  for (let i = 0; i < words.length; i++) if ((words[i]! & alpha) >>> 0 !== alpha) return false;
  return true;
}

/** Coverage of pixel (x, y) by the rounded box, for the pixels of its four corner squares (1 elsewhere inside). */
function cornerCover(x: number, y: number, box: Box): number {
  const r = box.radius;
  const inCornerRow = y < box.y + r || y >= box.y + box.height - r;
  const inCornerColumn = x < box.x + r || x >= box.x + box.width - r;
  return inCornerRow && inCornerColumn ? coverage(distance(x + 0.5, y + 0.5, box)) : 1;
}

/**
 * The box's shadows (the first on top, as CSS paints them) on `canvas` (RGB, changed in place): outside
 * the box, and under its rounded-off corners as far as they are cut away. The inside is left as it is.
 */
export function shade(canvas: Buffer, width: number, height: number, box: Box, shadows: readonly ShadowSpec[]): void {
  // Bottom one first. The frame's widest blur is its last shadow, so the separable ones (σ ≥ radius) come first.
  const all = shadows.map((shadow) => prepare(shadow, box, width, height)).reverse();
  const separable = all.filter((shadow) => shadow.columns);
  const near = all.filter((shadow) => !shadow.columns);
  const r = box.radius;
  const right = box.x + box.width;
  const bottom = box.y + box.height;
  // Clamped and rounded stores, as a renderer's.
  const pixels = new Uint8ClampedArray(canvas.buffer, canvas.byteOffset, canvas.length);
  const insideBox = (x: number, y: number): boolean => x >= box.x && x < right && y >= box.y && y < bottom;
  const shadePixel = (x: number, y: number, layers: readonly PreparedShadow[], weight: number): void => {
    const o = (y * width + x) * 3;
    for (const shadow of layers) {
      const a = shadowAt(shadow, x, y) * weight;
      if (a <= 0) continue;
      pixels[o] = pixels[o]! + (shadow.rgb[0] - pixels[o]!) * a;
      pixels[o + 1] = pixels[o + 1]! + (shadow.rgb[1] - pixels[o + 1]!) * a;
      pixels[o + 2] = pixels[o + 2]! + (shadow.rgb[2] - pixels[o + 2]!) * a;
    }
  };

  // The margin, under the wide shadows: a product of two precomputed profiles per pixel.
  for (const shadow of separable) {
    const columns = shadow.columns!;
    const rows = shadow.rows!;
    const [sr, sg, sb] = shadow.rgb;
    for (let y = 0; y < height; y++) {
      const rowAlpha = shadow.alpha * rows[y]!;
      // Below half a level in 8 bits it changes nothing.
      if (rowAlpha < 1 / 512) continue;
      const beside = y >= box.y && y < bottom;
      for (let x = 0; x < width; x++) {
        if (beside && x === box.x) x = right;
        if (x >= width) break;
        const a = rowAlpha * columns[x]!;
        if (a < 1 / 512) continue;
        const o = (y * width + x) * 3;
        const red = pixels[o]!;
        const green = pixels[o + 1]!;
        const blue = pixels[o + 2]!;
        pixels[o] = red + (sr - red) * a;
        pixels[o + 1] = green + (sg - green) * a;
        pixels[o + 2] = blue + (sb - blue) * a;
      }
    }
  }
  // The narrow shadows and outlines: only the band they reach around the box.
  const reach = Math.ceil(Math.max(0, ...near.map((shadow) => shadow.reach + Math.abs(shadow.box.x - box.x) + Math.abs(shadow.box.y - box.y))));
  if (near.length > 0) {
    for (let y = Math.max(0, box.y - reach); y < Math.min(height, bottom + reach); y++) {
      for (let x = Math.max(0, box.x - reach); x < Math.min(width, right + reach); x++) {
        if (insideBox(x, y)) {
          x = right - 1;
          continue;
        }
        shadePixel(x, y, near, 1);
      }
    }
  }
  // Under the corners' cut-away parts every shadow shows, as outside the box.
  for (const [left, top] of [[box.x, box.y], [right - r, box.y], [box.x, bottom - r], [right - r, bottom - r]] as const) {
    for (let y = top; y < top + r; y++) {
      for (let x = left; x < left + r; x++) {
        const cover = cornerCover(x, y, box);
        if (cover < 1) shadePixel(x, y, all, 1 - cover);
      }
    }
  }
}

/**
 * Lays the window at `box` on `canvas` (RGB, changed in place): its rounded corners and any transparency blended,
 * the rest of an RGB row copied as it is.
 */
export function layWindow(canvas: Buffer, width: number, window: WindowPixels, box: Box): void {
  const pixels = new Uint8ClampedArray(canvas.buffer, canvas.byteOffset, canvas.length);
  const barHeight = window.bar ? window.bar.data.length / (window.width * window.bar.channels) : 0;
  const r = box.radius;
  const blend = (part: Pixels, start: number, target: number, wy: number, from: number, to: number): void => {
    const { data, channels } = part;
    for (let wx = from; wx < to; wx++) {
      const w = start + wx * channels;
      const a = (cornerCover(box.x + wx, box.y + wy, box) * (channels === 4 ? data[w + 3]! : 255)) / 255;
      if (a <= 0) continue;
      const o = target + wx * 3;
      pixels[o] = pixels[o]! + (data[w]! - pixels[o]!) * a;
      pixels[o + 1] = pixels[o + 1]! + (data[w + 1]! - pixels[o + 1]!) * a;
      pixels[o + 2] = pixels[o + 2]! + (data[w + 2]! - pixels[o + 2]!) * a;
    }
  };
  for (let wy = 0; wy < window.height; wy++) {
    const part = wy < barHeight ? window.bar! : window.capture;
    const start = (wy < barHeight ? wy : wy - barHeight) * window.width * part.channels;
    const target = ((box.y + wy) * width + box.x) * 3;
    if (part.channels === 4) {
      blend(part, start, target, wy, 0, window.width);
      continue;
    }
    const cornerRow = wy < r || wy >= window.height - r;
    const inner = cornerRow ? Math.min(r, window.width) : 0;
    if (cornerRow) {
      blend(part, start, target, wy, 0, inner);
      blend(part, start, target, wy, Math.max(inner, window.width - r), window.width);
    }
    part.data.copy(canvas, target + inner * 3, start + inner * 3, start + Math.max(inner, window.width - inner) * 3);
  }
}
