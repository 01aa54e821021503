/**
 * Ping timings against a local server with injected latency (not a test: run it by hand).
 *   ./node_modules/.bin/node --import tsx bench/ping.ts
 * Local loopback hides network time, so each route's delay stands in for a real server's response time.
 */
import { Budget } from '../lib/budget.ts';
import { pingMedia, probe, type PingField } from '../lib/ping/index.ts';
import { startServer, type Route } from '../tests/helpers/server.ts';
import * as make from '../tests/ping/fixtures.ts';
import { deps, endless, serve } from '../tests/ping/helpers.ts';

const after =
  (ms: number, route: Route): Route =>
  async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route(req, res);
  };

const png = make.png(1200, 630);
const lateMoov = make.mp4(42.5, { width: 854, height: 480, moovAtEnd: true, mdatBytes: 5_000_000 });
const routes: Record<string, Route> = {
  '/a.png': serve(png, { contentType: 'image/png' }),
  '/huge.png': endless(make.pngHeader(4000, 3000), 50, 'image/png'),
  '/late.mp4': serve(lateMoov, { contentType: 'video/mp4' }),
  '/long.ogg': serve(make.ogg('vorbis', 300, 8), { contentType: 'audio/ogg' }),
};
for (let i = 0; i < 10; i++) routes[`/slow-${i}.png`] = after(500, serve(png, { contentType: 'image/png' }));
const server = await startServer(routes);
const url = (path: string): string => `${server.url}${path}`;
const ALL: Record<PingField, boolean> = { image: true, logo: true, audio: true, video: true };

async function time(label: string, runs: number, task: () => Promise<unknown>): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  console.log(`${label.padEnd(58)} median ${median.toFixed(1).padStart(7)} ms   max ${samples.at(-1)!.toFixed(1).padStart(7)} ms   (${runs} runs)`);
}

await time('probe: PNG, 1 ranged GET', 50, () => probe(url('/a.png'), 'image', new Budget(5000), deps()));
await time('probe: 50 MB PNG from a server ignoring Range', 10, () => probe(url('/huge.png'), 'image', new Budget(5000), deps()));
await time('probe: MP4 with moov after 5 MB of mdat (2 GETs)', 20, () => probe(url('/late.mp4'), 'video', new Budget(5000), deps()));
await time('probe: Ogg timed from its tail (2 GETs)', 20, () => probe(url('/long.ogg'), 'audio', new Budget(5000), deps()));
await time('pingMedia: 4 fields, each server 500 ms', 5, () =>
  pingMedia(
    { image: [url('/slow-0.png')], logo: [url('/slow-1.png')], audio: [url('/slow-2.png')], video: [url('/slow-3.png')] },
    ALL,
    new Budget(10_000),
    deps(),
  ),
);
await time('10 media URLs at once, each server 500 ms', 5, () =>
  Promise.all(Array.from({ length: 10 }, (_, i) => probe(url(`/slow-${i}.png`), 'image', new Budget(10_000), deps()))),
);
await server.close();
