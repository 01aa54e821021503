/**
 * A CSS background (a colour, or a linear gradient) painted straight into RGBA pixels, as Chromium paints a page's
 * background: on its white canvas. Compositing over white is linear in premultiplied colour, so a gradient of
 * translucent stops interpolated the CSS way (premultiplied) equals the same gradient of the stops' colours over
 * white: every stop is resolved to an opaque colour first and the ramp is plain interpolation.
 *
 * Colours are resolved by librsvg (sharp's SVG input), which reads CSS colour syntax (names, hex, rgb(), hsl(),
 * hwb()). What it cannot read (oklch(), color-mix(), …), radial and conic gradients, colour hints and lengths
 * other than px and % make `paintCss` answer undefined, and the caller has Chromium paint the value instead.
 */
import type { SharpFactory } from '../../media/sharp.ts';

export type Rgb = readonly [number, number, number];

export interface Painted {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

/** Splits at top-level occurrences of `separator` (never inside parentheses). */
function splitTop(value: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (depth === 0 && separator.test(char)) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/**
 * The colour `value` paints over white, or undefined when librsvg cannot read it. An unreadable fill is ignored
 * and inherited instead, so the same value inside a red group and a green group paints two different pixels.
 */
export async function resolveColour(sharp: SharpFactory, value: string): Promise<Rgb | undefined> {
  if (/[<>"&]/.test(value)) return undefined;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"><rect width="2" height="1" fill="#fff"/>` +
    `<g fill="#f00"><rect width="1" height="1" fill="${value}"/></g>` +
    `<g fill="#0f0"><rect x="1" width="1" height="1" fill="${value}"/></g></svg>`;
  const pixels = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const same = [0, 1, 2].every((i) => pixels[i] === pixels[3 + i]);
  return same ? [pixels[0]!, pixels[1]!, pixels[2]!] : undefined;
}

const ANGLE_UNITS: Readonly<Record<string, number>> = { deg: 1, grad: 0.9, rad: 180 / Math.PI, turn: 360 };
const SIDES: Readonly<Record<string, [number, number]>> = { top: [0, -1], bottom: [0, 1], left: [-1, 0], right: [1, 0] };

/** The gradient line's unit direction (y down) for `<angle>` or `to <side> [<side>]`, or undefined. */
function direction(argument: string, width: number, height: number): [number, number] | undefined {
  const angle = /^(-?\d*\.?\d+)(deg|grad|rad|turn)$/i.exec(argument);
  if (angle) {
    const radians = (Number(angle[1]) * ANGLE_UNITS[angle[2]!.toLowerCase()]! * Math.PI) / 180;
    return [Math.sin(radians), -Math.cos(radians)];
  }
  const words = argument.toLowerCase().split(/\s+/);
  if (words[0] !== 'to' || words.length < 2 || words.length > 3) return undefined;
  const sides = words.slice(1).map((word) => SIDES[word]);
  if (sides.some((side) => !side)) return undefined;
  const x = sides.reduce((sum, side) => sum + side![0], 0);
  const y = sides.reduce((sum, side) => sum + side![1], 0);
  if (sides.length === 2 && (x === 0 || y === 0)) return undefined;
  // To a corner: perpendicular to the diagonal through the two other corners (CSS Images 3 §3.1.1).
  const [dx, dy] = sides.length === 2 ? [x * height, y * width] : [x, y];
  const length = Math.hypot(dx, dy);
  return [dx / length, dy / length];
}

interface Stop {
  colour: Rgb;
  /** Pixels along the gradient line; undefined until placed. */
  at: number | undefined;
}

async function readStops(sharp: SharpFactory, parts: string[], length: number): Promise<Stop[] | undefined> {
  const stops: Stop[] = [];
  for (const part of parts) {
    const [colourText, ...positions] = splitTop(part, /\s/);
    if (!colourText || positions.length > 2) return undefined;
    const colour = await resolveColour(sharp, colourText);
    if (!colour) return undefined;
    if (positions.length === 0) stops.push({ colour, at: undefined });
    for (const position of positions) {
      const match = /^(-?\d*\.?\d+)(%|px)?$/.exec(position);
      if (!match || (match[2] === undefined && Number(match[1]) !== 0)) return undefined;
      stops.push({ colour, at: match[2] === '%' ? (Number(match[1]) / 100) * length : Number(match[1]) });
    }
  }
  if (stops.length < 2) return undefined;
  // CSS Images 3 §3.5.3: first and last default to the ends, none goes back, the unplaced share the gaps evenly.
  stops[0]!.at ??= 0;
  stops[stops.length - 1]!.at ??= length;
  let highest = -Infinity;
  for (const stop of stops) if (stop.at !== undefined) stop.at = highest = Math.max(highest, stop.at);
  for (let i = 1; i < stops.length; i++) {
    if (stops[i]!.at !== undefined) continue;
    let j = i;
    while (stops[j]!.at === undefined) j++;
    const from = stops[i - 1]!.at!;
    const step = (stops[j]!.at! - from) / (j - i + 1);
    for (let k = i; k < j; k++) stops[k]!.at = from + step * (k - i + 1);
  }
  return stops;
}

/** The ramp as a lookup table of `size` colours from the first stop's position to the last's. */
function ramp(stops: readonly Stop[], size: number): Uint8Array {
  const table = new Uint8Array(size * 3);
  const start = stops[0]!.at!;
  const span = stops[stops.length - 1]!.at! - start;
  let index = 0;
  for (let i = 0; i < size; i++) {
    const at = start + (span * i) / (size - 1);
    while (index < stops.length - 2 && stops[index + 1]!.at! <= at) index++;
    const a = stops[index]!;
    const b = stops[index + 1]!;
    const t = b.at! > a.at! ? Math.min(1, Math.max(0, (at - a.at!) / (b.at! - a.at!))) : at < b.at! ? 0 : 1;
    for (let c = 0; c < 3; c++) table[i * 3 + c] = Math.round(a.colour[c]! + (b.colour[c]! - a.colour[c]!) * t);
  }
  return table;
}

const RAMP_SIZE = 4096;

/** One RGBA pixel as a 32-bit word in the machine's byte order. */
const rgba = (r: number, g: number, b: number): number => new Uint32Array(new Uint8Array([r, g, b, 255]).buffer)[0]!;

async function linearGradient(sharp: SharpFactory, repeating: boolean, body: string, width: number, height: number): Promise<Painted | undefined> {
  const parts = splitTop(body, /,/);
  const first = parts[0] ?? '';
  const explicit = /^(to\s|-?\d*\.?\d+(deg|grad|rad|turn)$)/i.test(first);
  const unit = explicit ? direction(first, width, height) : [0, 1];
  if (!unit) return undefined;
  const [ux, uy] = unit as [number, number];
  const length = Math.abs(width * ux) + Math.abs(height * uy);
  const stops = await readStops(sharp, explicit ? parts.slice(1) : parts, length);
  if (!stops) return undefined;
  const start = stops[0]!.at!;
  const span = stops[stops.length - 1]!.at! - start;
  // All stops at one place: a hard edge with nothing between, which Chromium draws.
  if (span <= 0) return undefined;
  const table = new Uint32Array(RAMP_SIZE);
  const colours = ramp(stops, RAMP_SIZE);
  for (let i = 0; i < RAMP_SIZE; i++) table[i] = rgba(colours[i * 3]!, colours[i * 3 + 1]!, colours[i * 3 + 2]!);
  const data = Buffer.allocUnsafe(width * height * 4);
  const pixels = new Uint32Array(data.buffer, data.byteOffset, width * height);
  // Position along the line of a pixel's centre, measured from the first stop, in ramp entries.
  const perPixel = span > 0 ? (RAMP_SIZE - 1) / span : 0;
  const origin = (-(width / 2) * ux - (height / 2) * uy + length / 2 - start + 0.5 * ux) * perPixel;
  const step = ux * perPixel;
  const last = RAMP_SIZE - 1;
  for (let y = 0; y < height; y++) {
    const rowStart = origin + (y + 0.5) * uy * perPixel;
    const offset = y * width;
    for (let x = 0; x < width; x++) {
      const along = rowStart + x * step;
      let entry = Math.round(along);
      if (repeating) entry = ((entry % last) + last) % last;
      else entry = entry < 0 ? 0 : entry > last ? last : entry;
      pixels[offset + x] = table[entry]!;
    }
  }
  return { data, width, height };
}

/** `value` painted over white at `width` × `height` pixels (RGBA, opaque), or undefined when only a browser can paint it. */
export async function paintCss(sharp: SharpFactory, value: string, width: number, height: number): Promise<Painted | undefined> {
  const gradient = /^(repeating-)?linear-gradient\((.*)\)$/is.exec(value.trim());
  if (gradient) return linearGradient(sharp, gradient[1] !== undefined, gradient[2]!, width, height);
  if (/gradient\(/i.test(value)) return undefined;
  const colour = await resolveColour(sharp, value.trim());
  if (!colour) return undefined;
  return { data: Buffer.alloc(width * height * 4, Buffer.from([...colour, 255])), width, height };
}
