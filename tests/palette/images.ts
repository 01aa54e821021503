/** Test images drawn pixel by pixel, so each one's true colours are known. */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

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

export const jpegOf = (width: number, height: number, paint: Paint, quality = 85): Buffer =>
  jpeg.encode({ data: rgba(width, height, paint), width, height }, quality).data;

/** A landscape: sky, sun, hills and a field, with grain, as a photo's colours are never flat. */
export const photoLike: Paint = (x, y) => {
  const grain = ((x * 7919 + y * 104729) % 23) - 11;
  const clamp = (v: number) => Math.max(0, Math.min(255, v + grain));
  if ((x - 300) ** 2 + (y - 120) ** 2 < 60 ** 2) return [clamp(250), clamp(200), clamp(40)];
  if (y < 260 + 40 * Math.sin(x / 90)) return [clamp(90 + y / 8), clamp(160 + y / 10), clamp(230)];
  if (y < 420) return [clamp(40), clamp(110), clamp(50)];
  return [clamp(170), clamp(140), clamp(80)];
};
