/** Test images drawn pixel by pixel, so each one's true colours are known. */
import { PNG } from 'pngjs';
import sharp from 'sharp';

export type Paint = (x: number, y: number) => readonly [number, number, number, number?];

function rgba(width: number, height: number, paint: Paint): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = paint(x, y);
      data.set([r, g, b, a], (y * width + x) * 4);
    }
  }
  return data;
}

export function pngOf(width: number, height: number, paint: Paint): Buffer {
  const image = new PNG({ width, height });
  rgba(width, height, paint).copy(image.data);
  return PNG.sync.write(image);
}

/** The other formats are encoded by libvips (sharp), the library that decodes them in lib/palette. */
const encoded = (width: number, height: number, paint: Paint) => sharp(rgba(width, height, paint), { raw: { width, height, channels: 4 } });

export const jpegOf = (width: number, height: number, paint: Paint, quality = 85): Promise<Buffer> =>
  encoded(width, height, paint).jpeg({ quality }).toBuffer();

export const webpOf = (width: number, height: number, paint: Paint, lossless = false): Promise<Buffer> =>
  encoded(width, height, paint).webp({ lossless }).toBuffer();

export const gifOf = (width: number, height: number, paint: Paint): Promise<Buffer> => encoded(width, height, paint).gif().toBuffer();

export const avifOf = (width: number, height: number, paint: Paint): Promise<Buffer> => encoded(width, height, paint).avif().toBuffer();

/** A landscape: sky, sun, hills and a field, with grain, as a photo's colours are never flat. */
export const photoLike: Paint = (x, y) => {
  const grain = ((x * 7919 + y * 104729) % 23) - 11;
  const clamp = (v: number) => Math.max(0, Math.min(255, v + grain));
  if ((x - 300) ** 2 + (y - 120) ** 2 < 60 ** 2) return [clamp(250), clamp(200), clamp(40)];
  if (y < 260 + 40 * Math.sin(x / 90)) return [clamp(90 + y / 8), clamp(160 + y / 10), clamp(230)];
  if (y < 420) return [clamp(40), clamp(110), clamp(50)];
  return [clamp(170), clamp(140), clamp(80)];
};
