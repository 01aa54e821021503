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
  /** PNG's zlib level; PNG_LEVEL unless given. */
  readonly pngLevel?: number;
}

export const PNG_LEVEL = 3;
/**
 * A plain PNG screenshot's zlib level (lib/browser/capture.ts): its bytes are what a caller stores and serves, so
 * level 6, without adaptive filtering: a 2560×1600 capture in 28 ms for 300 KB (Chromium's own default PNG: 281 KB;
 * level 3: 14 ms for 383 KB; adaptive filtering at level 6: 89 ms for 285 KB).
 */
export const SCREENSHOT_PNG_LEVEL = 6;
export const WEBP_EFFORT = 2;

/** Formats with an alpha channel: there a window's corners can be transparent. */
export const hasAlpha = (type: ImageType): boolean => type !== 'jpeg';

export function encode(image: Sharp, { type, quality, pngLevel = PNG_LEVEL }: Encoding): Promise<Buffer> {
  if (type === 'png') return image.png({ compressionLevel: pngLevel, adaptiveFiltering: false }).toBuffer();
  if (type === 'jpeg') return image.jpeg({ quality }).toBuffer();
  return image.webp({ quality, effort: WEBP_EFFORT }).toBuffer();
}
