/**
 * Image bytes → RGBA pixels, for the palette only. JPEG goes through MozJPEG compiled to WebAssembly
 * (@jsquash/jpeg, Squoosh's codec): no install script, the same code on x64 and arm64 Lambdas, and 5–10× faster
 * than the pure-JS jpeg-js on a 12-megapixel photo (bench/palette). PNG goes through pngjs, pure JS and already
 * used by the tests. Both are imported on first use only, so a request without `palette` never loads them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface Pixels {
  /** RGBA, 4 bytes per pixel. */
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}

/** Beyond this many pixels decoding costs too much memory for a colour summary (a 40 MP RGBA frame is 160 MB). */
export const MAX_DECODE_PIXELS = 40_000_000;

type JpegDecode = (buffer: ArrayBuffer) => Promise<ImageDataLike>;
interface ImageDataLike {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

let jpeg: Promise<JpegDecode> | undefined;

/** The WebAssembly module is compiled once per process and reused. */
function jpegDecoder(): Promise<JpegDecode> {
  jpeg ??= (async () => {
    const { default: decode, init } = await import('@jsquash/jpeg/decode.js');
    const path = createRequire(import.meta.url).resolve('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm');
    // Emscripten instantiates from the bytes given; left alone it would try to fetch() the file next to the script.
    const wasmBinary = await readFile(path);
    await init({ wasmBinary } as Parameters<typeof init>[0]);
    return (buffer: ArrayBuffer) => decode(buffer) as Promise<ImageDataLike>;
  })();
  jpeg.catch(() => {
    jpeg = undefined;
  });
  return jpeg;
}

const isJpeg = (bytes: Uint8Array): boolean => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
const isPng = (bytes: Uint8Array): boolean =>
  bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;

/** The pixels of a JPEG or PNG; undefined for other formats (SVG, GIF, WebP, AVIF, ICO) and for broken files. */
export async function decodePixels(bytes: Buffer): Promise<Pixels | undefined> {
  try {
    if (isJpeg(bytes)) {
      const decode = await jpegDecoder();
      // A copy: the codec takes an ArrayBuffer, and a pooled Buffer's backing store holds other data too.
      const image = await decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
      return image.width * image.height > 0 ? image : undefined;
    }
    if (isPng(bytes)) {
      const { PNG } = await import('pngjs');
      // The header says the size before any pixel is inflated.
      const width = bytes.readUInt32BE(16);
      const height = bytes.readUInt32BE(20);
      if (width * height > MAX_DECODE_PIXELS) return undefined;
      const image = PNG.sync.read(bytes);
      return { data: image.data, width: image.width, height: image.height };
    }
  } catch {
    // A palette is an enrichment: a file its decoder refuses simply has none.
  }
  return undefined;
}
