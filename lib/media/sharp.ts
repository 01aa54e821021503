/**
 * sharp (libvips; prebuilt binaries shipped as npm packages for each platform, no install script; maintained,
 * Apache-2.0), imported on first use only: a request that neither asks for a palette nor composes an image never
 * loads libvips (about 50 ms).
 */
import type sharpModule from 'sharp';

export type SharpFactory = typeof sharpModule;

let loaded: Promise<SharpFactory> | undefined;

export function loadSharp(): Promise<SharpFactory> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache keeps recent inputs and results for reuse; every image here is new, so it would
    // only hold memory.
    sharp.cache(false);
    return sharp;
  });
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
