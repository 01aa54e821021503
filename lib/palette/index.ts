/**
 * `palette` (docs/CONTRACT.md §2, §4): the dominant colours of an image and three picked from them for display, as
 * Microlink answers them: `palette` (hex, most dominant first), `background_color` (the most dominant),
 * `color` (the one that reads best on the background) and `alternative_color` (the next best). `color` keeps
 * the WCAG AA contrast of 4.5:1 against the background: when no palette colour reaches it, black or white
 * does, whichever contrasts more (one of them always reaches 4.58 or more).
 *
 * Colours are grouped by extract-colors (maintained, typed, no dependencies, takes raw RGBA in Node): it merges
 * near colours in HSL and reports each group's share of the image, which is the "most dominant first" order.
 * It runs on the image decoded down to at most SAMPLE_PIXELS (lib/palette/decode.ts), so its cost does not grow
 * with the image.
 */
import { contrastRatio, hexOf, rgbOf, type Rgb } from './contrast.ts';
import { decodePixels, type Pixels } from './decode.ts';

export interface PaletteFields {
  palette: string[];
  background_color: string;
  color: string;
  alternative_color: string;
}

/** Pixels the image is decoded down to: plenty for a colour summary, a few milliseconds of grouping. */
const SAMPLE_PIXELS = 16_384;
/** Colours reported at most. */
const MAX_COLORS = 6;
/** WCAG AA for normal text, and for large text (the alternative's bar). */
const AA = 4.5;
const AA_LARGE = 3;
const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

export async function dominantColors(pixels: Pixels): Promise<string[]> {
  const { extractColorsFromImageData } = await import('extract-colors');
  const { data, width, height } = pixels;
  const colors = extractColorsFromImageData(
    { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width, height },
    { pixels: width * height, distance: 0.12 },
  );
  return colors
    .sort((a, b) => b.area - a.area)
    .slice(0, MAX_COLORS)
    .map((color) => hexOf([color.red, color.green, color.blue]));
}

/** background, color and alternative_color from a palette (most dominant first, at least one colour). */
export function pickColors(palette: readonly string[]): Omit<PaletteFields, 'palette'> {
  const background = rgbOf(palette[0]!);
  const ranked = palette
    .slice(1)
    .map((hex) => ({ hex, ratio: contrastRatio(rgbOf(hex), background) }))
    .sort((a, b) => b.ratio - a.ratio);
  const [blackOrWhite, otherOne] = [BLACK, WHITE]
    .map((rgb) => ({ hex: hexOf(rgb), ratio: contrastRatio(rgb, background) }))
    .sort((a, b) => b.ratio - a.ratio) as [{ hex: string; ratio: number }, { hex: string; ratio: number }];
  const color = ranked[0] && ranked[0].ratio >= AA ? ranked[0] : blackOrWhite;
  const alternative =
    ranked.find((candidate) => candidate.hex !== color.hex && candidate.ratio >= AA_LARGE) ??
    [blackOrWhite, otherOne].find((candidate) => candidate.hex !== color.hex)!;
  return { background_color: hexOf(background), color: color.hex, alternative_color: alternative.hex };
}

/**
 * The palette fields of an encoded JPEG, PNG, WebP, GIF or AVIF; undefined when it cannot be decoded (in
 * `seconds`) or shows no opaque colour.
 */
export async function paletteOf(bytes: Buffer, seconds: number): Promise<PaletteFields | undefined> {
  const pixels = await decodePixels(bytes, SAMPLE_PIXELS, seconds);
  if (!pixels) return undefined;
  const palette = await dominantColors(pixels);
  if (palette.length === 0) return undefined;
  return { palette, ...pickColors(palette) };
}
