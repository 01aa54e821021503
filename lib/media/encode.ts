/**
 * Encoding an image Glance composed or re-encodes (the overlay, WebP screenshots) with sharp, at the settings
 * bench/screenshot.ts, bench/compose.ts and bench/RESULTS.md (issue 16) chose: zlib level 3 without adaptive
 * filtering for PNG (sharp's zlib-ng: a 2970×2090 overlay in half level 6's CPU time, 22 against 44 ms, for a fifth
 * more bytes, 566 against 470 KiB; adaptive filtering took 3.4 times level 6's time for 17 % fewer bytes),
 * libjpeg's defaults for JPEG, effort 2 for WebP (libwebp's default, 4, took 2.4 times as long for 4 % fewer bytes).
 */
import type { Sharp } from 'sharp';

export type ImageType = 'png' | 'jpeg' | 'webp';

export interface Encoding {
  readonly type: ImageType;
  /** JPEG and WebP quality, 0–100. */
  readonly quality: number;
}

export const PNG_LEVEL = 3;
export const WEBP_EFFORT = 2;

/** Formats with an alpha channel: there a window's corners can be transparent. */
export const hasAlpha = (type: ImageType): boolean => type !== 'jpeg';

export function encode(image: Sharp, { type, quality }: Encoding): Promise<Buffer> {
  if (type === 'png') return image.png({ compressionLevel: PNG_LEVEL, adaptiveFiltering: false }).toBuffer();
  if (type === 'jpeg') return image.jpeg({ quality }).toBuffer();
  return image.webp({ quality, effort: WEBP_EFFORT }).toBuffer();
}
