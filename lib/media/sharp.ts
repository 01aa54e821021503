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

/**
 * Frees a large buffer's memory now, not at the next full garbage collection: V8 counts such memory as external,
 * and once a few tens of MB of it have come since the last one, it collects the whole heap (the adblock engine's
 * included) to find what can go — for the overlay, whose decoded capture alone is 12 MB, about a third of its CPU
 * (bench/RESULTS.md, issue 16). Only for a buffer that owns its whole ArrayBuffer (never a slice of Node's pool),
 * once nothing reads it any more, sharp included: a view of it reads as empty afterwards.
 */
export function release(buffer: Buffer): void {
  const whole = buffer.buffer;
  if (whole instanceof ArrayBuffer && buffer.byteLength > 0 && buffer.byteOffset === 0 && buffer.byteLength === whole.byteLength) whole.transfer(0);
}
