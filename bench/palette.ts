/**
 * Part 12: `palette` per image — decode at reduced size (sharp/libvips) plus colour grouping (extract-colors), for
 * the formats a page's image or logo comes in, up to a 12-megapixel camera JPEG (the target: under 50 ms).
 * Each image is timed in wall-clock time and in CPU time of the whole process (libvips decodes on its own threads,
 * so CPU time is what a loaded machine cannot steal; wall time is what a request waits on an idle one).
 *   ./node_modules/.bin/node --import tsx bench/palette.ts [--smoke]
 */
import './lib/env.ts';
import { paletteOf } from '../lib/palette/index.ts';
import { avifOf, gifOf, jpegOf, photoLike, pngOf, webpOf, type Paint } from '../tests/palette/images.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, ms, percentile, round } from './lib/stats.ts';

const TARGET_MS = 50;

/** The landscape drawn at any size: the same picture, so only the size and the format change. */
const scaled =
  (width: number): Paint =>
  (x, y) =>
    photoLike(Math.floor((x * 640) / width), Math.floor((y * 640) / width));

interface Case {
  name: string;
  /** The metrics' prefix. */
  key: string;
  make: () => Promise<Buffer> | Buffer;
}

const CASES: Case[] = [
  { name: 'JPEG 4000×3000', key: 'jpeg12mp', make: () => jpegOf(4000, 3000, scaled(4000)) },
  { name: 'JPEG 1920×1080', key: 'jpeg2mp', make: () => jpegOf(1920, 1080, scaled(1920)) },
  { name: 'PNG 1200×630', key: 'png', make: () => pngOf(1200, 630, scaled(1200)) },
  { name: 'WebP 1920×1080', key: 'webp', make: () => webpOf(1920, 1080, scaled(1920)) },
  { name: 'GIF 800×600', key: 'gif', make: () => gifOf(800, 600, scaled(800)) },
  { name: 'AVIF 1200×800', key: 'avif', make: () => avifOf(1200, 800, scaled(1200)) },
  { name: 'PNG 64×64 (icon)', key: 'icon', make: () => pngOf(64, 64, scaled(64)) },
];

const cpuMs = (start: NodeJS.CpuUsage): number => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};

export const palette: Part = async ({ smoke, log }) => {
  const runs = smoke ? 1 : 40;
  const firstStart = performance.now();
  await paletteOf(await jpegOf(16, 16, photoLike), 30);
  const loadMs = performance.now() - firstStart;
  log(`libvips loaded, first palette in ${ms(loadMs)}; ${runs} runs per image`);

  const metrics: Record<string, number> = { loadMs: round(loadMs), runs };
  const rows: string[][] = [];
  let bigP95 = { wall: Number.NaN, cpu: Number.NaN };
  for (const { name, key, make } of CASES) {
    const bytes = await make();
    const wall: number[] = [];
    const cpu: number[] = [];
    let colours = 0;
    for (let run = 0; run < runs; run++) {
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      const fields = await paletteOf(bytes, 30);
      wall.push(performance.now() - started);
      cpu.push(cpuMs(cpuStart));
      colours = fields?.palette.length ?? 0;
    }
    if (colours === 0) throw new Error(`${name}: no palette`);
    metrics[`${key}.medianMs`] = round(median(wall), 2);
    metrics[`${key}.p95Ms`] = round(percentile(wall, 95), 2);
    metrics[`${key}.cpuP95Ms`] = round(percentile(cpu, 95), 2);
    if (key === 'jpeg12mp') bigP95 = { wall: percentile(wall, 95), cpu: percentile(cpu, 95) };
    rows.push([name, `${(bytes.length / 1024).toFixed(0)} KB`, String(colours), ms(median(wall)), ms(percentile(wall, 95)), ms(median(cpu)), ms(percentile(cpu, 95))]);
    log(`${name}: median ${ms(median(wall))}, CPU p95 ${ms(percentile(cpu, 95))}`);
  }
  return {
    metrics,
    tables: [
      {
        title: `Palette per image (${runs} runs each, after the first palette loaded libvips)`,
        header: ['image', 'bytes', 'colours', 'wall median', 'wall p95', 'CPU median', 'CPU p95'],
        rows,
      },
      { title: 'First palette in a process', header: ['load sharp/libvips + a 16×16 JPEG'], rows: [[ms(loadMs)]] },
    ],
    targets: [
      { name: 'palette of a 4000×3000 JPEG (CPU p95)', goal: `< ${TARGET_MS} ms`, measured: ms(bigP95.cpu), met: bigP95.cpu < TARGET_MS },
      { name: 'palette of a 4000×3000 JPEG (wall p95)', goal: `< ${TARGET_MS} ms`, measured: ms(bigP95.wall), met: bigP95.wall < TARGET_MS },
    ],
    notes: [
      'JPEG and WebP are reduced inside their decoders (shrink-on-load: a JPEG by up to 8× in the IDCT), then scaled to at most 16 384 pixels; PNG, GIF and AVIF are decoded whole, row by row, and scaled as they stream.',
      'CPU time is the whole process (libvips runs on its own threads): on a machine shared with other work it is the steadier figure.',
    ],
  };
};

await runIfMain('palette', import.meta.url, palette);
