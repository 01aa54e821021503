/**
 * The overlay's composing alone (issue 16), beside bench/screenshot.ts's end-to-end overlay figures: one capture of
 * the article page (Chromium's speed-optimised PNG, as Glance takes it for an overlay), then, interleaved run by run,
 * each step of framing it in a dark window on a gradient (2970×2090) — decoding the capture, the whole composing as
 * Glance does it (lib/browser/overlay.ts, background kept), and the final PNG at each zlib level, without and with
 * libpng's adaptive filtering — in wall and CPU milliseconds (CPU: this process's, libuv's pool included, so it
 * holds on a loaded machine where wall time does not) and bytes.
 *   ./node_modules/.bin/node --import tsx bench/compose.ts [--smoke]
 * Not a part of bench/run.ts: a tool for choosing the overlay's encoding (lib/media/encode.ts).
 */
import './lib/env.ts';
import { loadavg } from 'node:os';
import { startServer } from '../tests/helpers/server.ts';
import { prepareOverlay, type OverlayDeps } from '../lib/browser/overlay.ts';
import { PNG_LEVEL } from '../lib/media/encode.ts';
import { loadSharp } from '../lib/media/sharp.ts';
import { articleRoutes } from './lib/article.ts';
import { launchBare, VIEWPORT } from './lib/bare.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, ms } from './lib/stats.ts';

const OVERLAY = { browser: 'dark' as const, background: 'linear-gradient(135deg, #fbc2eb, #a6c1ee)' };
const LEVELS = [1, 2, 3, 4, 5, 6] as const;

async function captureArticle(): Promise<Buffer> {
  const site = await startServer(articleRoutes());
  const bare = await launchBare();
  try {
    const context = await bare.browser.createBrowserContext();
    const tab = await context.newPage();
    await tab.setViewport(VIEWPORT);
    await tab.goto(`${site.url}/article`, { waitUntil: 'load' });
    return Buffer.from(await tab.screenshot({ type: 'png', optimizeForSpeed: true }));
  } finally {
    await bare.close();
    await site.close();
  }
}

export const compose: Part = async ({ smoke, log }) => {
  const runs = smoke ? 1 : 25;
  const sharp = await loadSharp();
  const body = await captureArticle();
  const width = VIEWPORT.width * VIEWPORT.deviceScaleFactor;
  const capture = { body, type: 'png' as const, width, height: VIEWPORT.height * VIEWPORT.deviceScaleFactor };
  const deps: OverlayDeps = {
    renderHtml: () => Promise.reject(new Error('a gradient is painted without the browser')),
    fetchImage: () => Promise.reject(new Error('no image here')),
  };
  const framed = async () => (await prepareOverlay(capture, OVERLAY, VIEWPORT.deviceScaleFactor, { type: 'png', quality: 80 }, deps))();
  const composed = await framed();
  const raw = await sharp(composed.body).raw().toBuffer({ resolveWithObject: true });
  const size = { width: raw.info.width, height: raw.info.height, channels: 3 as const };
  const variants: Array<[string, () => Promise<Buffer>]> = [
    ['decode the capture, RGB', () => sharp(body).raw().toBuffer()],
    ['decode the capture, RGBA (before issue 16’s change)', () => sharp(body).ensureAlpha().raw().toBuffer()],
    [`whole composing as Glance does it (PNG level ${PNG_LEVEL}, no filtering)`, async () => (await framed()).body],
    ...LEVELS.map((level): [string, () => Promise<Buffer>] => [
      `encode ${size.width}×${size.height} RGB, PNG level ${level}, no filtering`,
      () => sharp(raw.data, { raw: size }).png({ compressionLevel: level, adaptiveFiltering: false }).toBuffer(),
    ]),
    [`encode, PNG level 6, adaptive filtering`, () => sharp(raw.data, { raw: size }).png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer()],
  ];
  const results = variants.map(() => ({ wall: [] as number[], cpu: [] as number[], bytes: 0 }));
  for (let run = 0; run < runs; run++) {
    for (const [i, [, work]] of variants.entries()) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const output = await work();
      results[i]!.wall.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      results[i]!.cpu.push((used.user + used.system) / 1000);
      results[i]!.bytes = output.length;
    }
  }
  const metrics: Record<string, number> = {};
  const rows = variants.map(([name], i) => {
    const { wall, cpu, bytes } = results[i]!;
    log(`${name}: ${ms(median(wall))} wall, ${ms(median(cpu))} CPU, ${bytes} bytes`);
    metrics[`${i}.wallMs`] = median(wall);
    metrics[`${i}.cpuMs`] = median(cpu);
    metrics[`${i}.bytes`] = bytes;
    return [name, ms(median(wall)), ms(median(cpu)), `${(bytes / 1024).toFixed(0)} KiB`];
  });
  return {
    metrics,
    tables: [
      {
        title: `The overlay's steps on one ${width}×${capture.height} capture (median of ${runs}, interleaved; sharp.concurrency() ${sharp.concurrency()})`,
        header: ['step', 'wall', 'CPU', 'bytes'],
        rows,
      },
    ],
    targets: [],
    notes: [`Load average at the end: ${loadavg().map((load) => load.toFixed(2)).join(' ')}.`],
  };
};

await runIfMain('compose', import.meta.url, compose);
