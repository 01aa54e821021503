/**
 * Part 5: ping timings against local servers with injected latency (loopback hides network time, so each
 * route's delay stands in for a real server's response time).
 *   ./node_modules/.bin/node --import tsx bench/ping.ts [--smoke]
 *
 * "A page with 10 / 50 media URLs of 500 ms each": pingMedia is given the URLs as candidates spread over the four
 * media fields (image, logo, audio, video), in two cases — every URL reachable (each field keeps its first, so
 * later candidates are never requested), and every URL unreachable but the last of each field (each field walks
 * its whole list: the worst case). The same pages go through the service too, where the extractor finds the
 * candidates itself. Wall time is compared with the slowest single ping (one 500 ms URL, measured) and the sum.
 */
import './lib/env.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Budget } from '../lib/time/budget.ts';
import { extractMetadata } from '../lib/extract/index.ts';
import { MEDIA_FIELDS, type MediaField } from '../lib/data/fields.ts';
import { MAX_CANDIDATES, pingMedia, probe } from '../lib/ping/index.ts';
import { startServer, html, type Route } from '../tests/helpers/server.ts';
import { q, startService } from '../tests/helpers/service.ts';
import * as make from '../tests/ping/fixtures.ts';
import { deps, endless, serve } from '../tests/ping/helpers.ts';
import { runIfMain, type Part, type Target } from './lib/part.ts';
import { median, ms, timeRuns, times } from './lib/stats.ts';
import { loadDateParsers } from '../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

/** Each media server's answer time; smoke runs use a shorter one so the 50-URL walk takes well under a second. */
const FULL_DELAY_MS = 500;
const SMOKE_DELAY_MS = 50;
const MAX_RATIO = 1.3;
const ALL: Record<MediaField, boolean> = { image: true, logo: true, audio: true, video: true };

const png = make.png(1200, 630);
const BODIES: Record<MediaField, { body: Buffer; type: string; ext: string }> = {
  image: { body: png, type: 'image/png', ext: 'png' },
  logo: { body: make.png(192, 192), type: 'image/png', ext: 'png' },
  audio: { body: make.mp3(400), type: 'audio/mpeg', ext: 'mp3' },
  video: { body: make.mp4(42.5, { width: 854, height: 480 }), type: 'video/mp4', ext: 'mp4' },
};

const after =
  (delay: number, route: Route): Route =>
  async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, delay));
    await route(req, res);
  };
const gone: Route = (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');

/**
 * N URLs spread over the four fields, round robin: `/<field>/<i>-<ok|dead>.<ext>`; in `walk` only the last candidate
 * each field is allowed to try is ok (its MAX_CANDIDATES-th, or its last when it has fewer: the rest are dropped).
 */
function spread(n: number, walk: boolean, origin: string, tag: string): Record<MediaField, string[]> {
  const lists: Record<MediaField, string[]> = { image: [], logo: [], audio: [], video: [] };
  for (let i = 0; i < n; i++) lists[MEDIA_FIELDS[i % MEDIA_FIELDS.length]!].push('');
  for (const field of MEDIA_FIELDS) {
    const list = lists[field];
    lists[field] = list.map((_, i) => {
      const ok = !walk || i === Math.min(list.length, MAX_CANDIDATES) - 1;
      return `${origin}/${field}/${i}-${ok ? 'ok' : 'dead'}.${BODIES[field].ext}?${tag}`;
    });
  }
  return lists;
}

/** A page declaring those URLs where the extractor looks for each field. */
const pageFor = (lists: Record<MediaField, string[]>): string => `<!doctype html><html lang="en"><head><title>Media</title>
<meta name="description" content="A page with many media URLs.">
${lists.image.map((u) => `<meta property="og:image" content="${u}">`).join('\n')}
${lists.logo.map((u, i) => `<link rel="icon" sizes="${512 - i}x${512 - i}" href="${u}">`).join('\n')}
${lists.audio.map((u) => `<meta property="og:audio" content="${u}">`).join('\n')}
${lists.video.map((u) => `<meta property="og:video" content="${u}">`).join('\n')}
</head><body><p>${'Text. '.repeat(60)}</p></body></html>`;

export const ping: Part = async ({ smoke, log }) => {
  const DELAY_MS = smoke ? SMOKE_DELAY_MS : FULL_DELAY_MS;
  const routes: Record<string, Route> = {
    '/a.png': serve(png, { contentType: 'image/png' }),
    '/huge.png': endless(make.pngHeader(4000, 3000), 50, 'image/png'),
    '/late.mp4': serve(make.mp4(42.5, { width: 854, height: 480, moovAtEnd: true, mdatBytes: 5_000_000 }), { contentType: 'video/mp4' }),
    '/long.ogg': serve(make.ogg('vorbis', 300, 8), { contentType: 'audio/ogg' }),
    '/slow.png': after(DELAY_MS, serve(png, { contentType: 'image/png' })),
  };
  const server = await startServer(routes);
  // Media routes by pattern: /<field>/<i>-<ok|dead>.<ext>, every one answering after DELAY_MS.
  for (const field of MEDIA_FIELDS) {
    for (let i = 0; i < 50; i++) {
      server.route(`/${field}/${i}-ok.${BODIES[field].ext}`, after(DELAY_MS, serve(BODIES[field].body, { contentType: BODIES[field].type })));
      server.route(`/${field}/${i}-dead.${BODIES[field].ext}`, after(DELAY_MS, gone));
    }
  }
  const url = (path: string): string => `${server.url}${path}`;
  const runs = smoke ? 1 : 5;
  const metrics: Record<string, number> = {};
  const targets: Target[] = [];

  const probeRows: string[][] = [];
  const probeCase = async (label: string, key: string, count: number, task: () => Promise<unknown>) => {
    const samples = await timeRuns(smoke ? 1 : count, task);
    metrics[`probe.${key}`] = median(samples);
    probeRows.push([label, ms(median(samples)), ms(Math.max(...samples)), `${samples.length}`]);
  };
  await probeCase('PNG, 1 ranged GET', 'png', 50, () => probe(url('/a.png'), 'image', new Budget(5000), deps()));
  await probeCase('50 MB PNG from a server ignoring Range', 'hugePng', 10, () => probe(url('/huge.png'), 'image', new Budget(5000), deps()));
  await probeCase('MP4 with moov after 5 MB of mdat (2 GETs)', 'lateMoov', 20, () => probe(url('/late.mp4'), 'video', new Budget(5000), deps()));
  await probeCase('Ogg timed from its tail (2 GETs)', 'oggTail', 20, () => probe(url('/long.ogg'), 'audio', new Budget(5000), deps()));

  // The reference: one field, one 500 ms URL.
  const single = median(await timeRuns(runs, () => pingMedia({ image: [url('/slow.png')] }, ALL, new Budget(30_000), deps())));
  metrics['singleMs'] = single;
  log(`single ${DELAY_MS} ms ping: ${ms(single)}`);

  const service = await startService();
  const rows: string[][] = [];
  let tag = 0;
  for (const n of [10, 50]) {
    for (const walk of [false, true]) {
      const name = `${n} URLs, ${walk ? `all dead but the last tried of each field (≤ ${MAX_CANDIDATES} per field)` : 'all reachable'}`;
      const key = `n${n}.${walk ? 'walk' : 'reachable'}`;
      // pingMedia directly; every run on fresh URLs (nothing is cached between runs anyway without a PingCache).
      const before = server.hits.length;
      const direct = await timeRuns(walk && n === 50 && !smoke ? 3 : runs, () =>
        pingMedia(spread(n, walk, server.url, `r=${tag++}`), ALL, new Budget(30_000), deps()),
      );
      const requests = (server.hits.length - before) / direct.length;
      // Through the service: a page declaring them, ping's share read from server-timing.
      const viaService: number[] = [];
      let candidates = 0;
      for (let run = 0; run < (walk && n === 50 && !smoke ? 3 : runs); run++) {
        const lists = spread(n, walk, server.url, `s=${tag++}`);
        const path = `/page-${tag}`;
        server.route(path, html(pageFor(lists)));
        const found = extractMetadata({ html: pageFor(lists), url: url(path) }).candidates;
        candidates = MEDIA_FIELDS.reduce((sum, field) => sum + found[field].filter((u) => u.includes('/' + field + '/')).length, 0);
        const response = await service.request(q(url(path), 'audio&video&force=true'));
        const body = (await response.json()) as { data?: Record<string, { url?: string } | null> };
        if (response.status !== 200 || MEDIA_FIELDS.some((field) => !body.data?.[field]?.url)) throw new Error(`${name}: ${JSON.stringify(body)}`);
        const span = /\bping;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
        viaService.push(Number(span?.[1]));
      }
      const sum = n * DELAY_MS;
      metrics[`${key}.directMs`] = median(direct);
      metrics[`${key}.serviceMs`] = median(viaService);
      metrics[`${key}.ratio`] = median(direct) / single;
      log(`${name}: ${ms(median(direct))} direct, ${ms(median(viaService))} through the service`);
      rows.push([
        name,
        `${requests.toFixed(0)}`,
        `**${ms(median(direct))}**`,
        `${ms(median(viaService))} (${candidates} found)`,
        `${sum} ms`,
        ms(single),
        `**${times(median(direct) / single)}**`,
      ]);
      targets.push({
        name: `ping: ${name}`,
        goal: `≤ ${MAX_RATIO}× the slowest single ping`,
        measured: `${times(median(direct) / single)} (service: ${times(median(viaService) / single)})`,
        met: median(direct) / single <= MAX_RATIO && median(viaService) / single <= MAX_RATIO,
      });
    }
  }
  // The old bench's case: N separate URLs at once, each probed on its own (no field walk, no slot limit).
  const loose = median(await timeRuns(runs, () => Promise.all(Array.from({ length: 10 }, (_, i) => probe(url(`/image/${i}-ok.png?l=${tag++}`), 'image', new Budget(10_000), deps())))));
  metrics['loose10Ms'] = loose;
  rows.push(['10 separate probe() calls at once (reference)', '10', ms(loose), '—', `${10 * DELAY_MS} ms`, ms(single), times(loose / single)]);

  await service.close();
  await server.close();
  return {
    metrics,
    tables: [
      { title: 'Single probes', header: ['case', 'median', 'max', 'runs'], rows: probeRows },
      {
        title: `pingMedia with N media URLs over 4 fields, each answering after ${DELAY_MS} ms (median of ${runs} runs; 3 for the 50-URL walk)`,
        header: ['case', 'requests made', 'pingMedia wall', 'through the service (ping span)', 'sum', 'slowest single', 'wall / single'],
        rows,
      },
    ],
    targets,
    notes: [
      `Dead URLs answer 404 after ${DELAY_MS} ms. pingMedia probes at most 8 URLs at once per call, and a field tries its next candidate only when ` +
        'the previous one failed, or after 1 s without an answer (hedge); the service pings `image`, `logo`, `audio` and `video` ' +
        '(with `audio&video`), its logo list ending with the /favicon.ico guess.',
      'Every run uses fresh URLs (a query tag), so neither the service\'s ping cache nor its answer cache (force=true) hides a ping.',
    ],
  };
};

await runIfMain('ping', import.meta.url, ping);
