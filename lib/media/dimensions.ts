/**
 * Image dimensions from the first bytes. Raster formats go to `image-size`: it has no dependencies, reads
 * plain buffers, and its parsers only look at header fields, so a truncated buffer of the first 64 KB either
 * sizes the image or throws (a JPEG segment running past the buffer is an error, not a guess); it also picks an ICO's largest entry (0 meaning 256) and
 * reads AVIF's ispe box. Two things are ours: EXIF orientations 5–8 (a quarter turn) swap width and height, as
 * browsers display them rotated, and SVG, whose text image-size only looks for in the first kilobyte.
 */
import { imageSize } from 'image-size';
import type { Sniffed } from './sniff.ts';
import { svgSize } from './svg.ts';

export interface Dimensions {
  width: number;
  height: number;
}

const isPixels = (value: number | undefined): value is number => Number.isSafeInteger(value) && value! > 0;

/** PNG, JPEG, GIF, WebP, AVIF, ICO, BMP, TIFF…: undefined when the bytes do not say. */
export function rasterSize(bytes: Buffer): Dimensions | undefined {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return undefined;
  }
  if (!isPixels(size.width) || !isPixels(size.height)) return undefined;
  const turned = size.orientation !== undefined && size.orientation >= 5 && size.orientation <= 8;
  return turned ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
}

export function imageDimensions(type: Sniffed, bytes: Buffer): Dimensions | undefined {
  return type === 'svg' ? svgSize(bytes) : rasterSize(bytes);
}
