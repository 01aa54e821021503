/**
 * What an image's header may claim before libvips is asked to decode it (palettes, overlay backgrounds): an image
 * from a stranger is refused on its header, never found too costly half-way through its pixels. A 76 kB PNG of
 * 1 × 39 000 000 pixels took 11 s of CPU to decode (issue 24). A JPEG is decoded at up to an eighth of its size a
 * side, so its pixels cost a sixty-fourth; the others are decoded whole, WebP at about four times PNG's cost a pixel
 * and AVIF at about twenty: the largest image each bound allows, of noise (the worst case), decodes in about 0.4 s of
 * CPU at most (bench/RESULTS.md, issue 24). No side over WebP's own limit, far past what a palette or a backdrop needs.
 */
import type { Sniffed } from './sniff.ts';

export const MAX_DECODE_PIXELS = { jpg: 40_000_000, png: 16_000_000, webp: 6_000_000, gif: 8_000_000, avif: 2_000_000 } as const;
export const MAX_DECODE_SIDE = 16_383;

export type Decoded = keyof typeof MAX_DECODE_PIXELS;

/** The raster formats of the web that libvips decodes here. */
export const isDecoded = (type: Sniffed | undefined): type is Decoded => type !== undefined && Object.hasOwn(MAX_DECODE_PIXELS, type);

/** Whether an image of `type` with this header size may be decoded. */
export const decodable = (type: Decoded, width: number, height: number): boolean =>
  width > 0 && height > 0 && width <= MAX_DECODE_SIDE && height <= MAX_DECODE_SIDE && width * height <= MAX_DECODE_PIXELS[type];
