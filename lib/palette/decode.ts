/**
 * Image bytes → a small RGBA frame, for the palette only, through sharp (libvips, prebuilt binaries shipped as npm
 * packages for each platform, no install script; maintained, Apache-2.0). libvips decodes at reduced size where
 * the format allows: a JPEG is shrunk by up to 8× inside the IDCT (libjpeg's scale_denom) and a WebP by its own
 * decoder, so a 12-megapixel photo never exists at full size — that is what brings its palette under 50 ms
 * (bench/palette). sharp is imported on first use only, so a request without `palette` never loads libvips.
 */
import type { SharpOptions } from 'sharp';
import { loadSharp } from '../media/sharp.ts';
import { decodable, isDecoded, MAX_DECODE_PIXELS } from '../media/decode-bounds.ts';
import { sniff } from '../media/sniff.ts';

export interface Pixels {
  /** RGBA, 4 bytes per pixel. */
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}

/**
 * The pixels of a JPEG, PNG, WebP, GIF (first frame) or AVIF, scaled down to at most `maxPixels` (aspect kept);
 * undefined for other formats (SVG on purpose: rasterising markup from an arbitrary site costs more than its colours
 * are worth, and they are in the markup anyway), for images past lib/media/decode-bounds.ts, for files the decoder refuses, and when the
 * decode outlives `seconds` (libvips stops it: decoding runs on libuv's threads, never the event loop, and a native
 * call is not something a terminated worker thread could stop).
 */
export async function decodePixels(bytes: Buffer, maxPixels: number, seconds: number): Promise<Pixels | undefined> {
  const type = sniff(bytes);
  if (!isDecoded(type)) return undefined;
  const sharp = await loadSharp();
  try {
    const options: SharpOptions = { limitInputPixels: MAX_DECODE_PIXELS[type] };
    // The header alone: the size decides before a pixel is decoded (lib/media/decode-bounds.ts).
    const { width = 0, height = 0 } = await sharp(bytes, options).metadata();
    if (!decodable(type, width, height)) return undefined;
    const scale = Math.min(1, Math.sqrt(maxPixels / (width * height)));
    const { data, info } = await sharp(bytes, options)
      .timeout({ seconds: Math.max(1, Math.floor(seconds)) })
      // Nearest neighbour after the decoder's own reduction: pixels keep colours the image has, not blends of
      // neighbours that would add shades to the palette.
      .resize(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale)), { fit: 'fill', kernel: 'nearest' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    // A palette is an enrichment: a file its decoder refuses simply has none.
    return undefined;
  }
}
