/**
 * Part: soak. The real local service process (`functions/local.ts`, as `npm start` runs it) under mixed traffic at
 * concurrency 4 for SOAK_MINUTES (default 15): metadata, cache hits, screenshots, overlays, PDFs, refused targets and
 * targets that fail (smoke mode: each kind once, in turn, then a cache hit again). Every answer must be the expected
 * one (0 errors), and node's memory, the browser's memory and the disk under the service's folders are sampled to
 * show they stay flat or bounded.
 *   SOAK_MINUTES=15 ./node_modules/.bin/node --import tsx bench/soak.ts [--smoke]
 */
import './lib/env.ts';
import { readdirSync, statSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { unusedPort } from '../tests/helpers/server.ts';
import { ROOT } from './lib/bundle.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { childProcesses, treeMemory } from './lib/procmem.ts';
import { percentile, round } from './lib/stats.ts';
import { startTreeService } from './lib/tree-service.ts';
import { sharedAdblockEngine } from '../tests/helpers/adblock-engine.ts';

const CONCURRENCY = 4;
const SAMPLE_EVERY_MS = 5_000;
const RETENTION_MINUTES = 2;
/** Chromium's own DNS stays off the network here (tests/helpers/chromium-args.ts says why). */

const PAGE = (n: number) =>
  `<!doctype html><html lang="en"><head><title>Soak page ${n}</title><meta name="description" content="Page ${n} of the soak">` +
  `<meta property="og:image" content="/img.png"><link rel="icon" href="/img.png"></head>` +
  `<body style="background:#${(n * 2654435761 % 0xffffff).toString(16).padStart(6, '0')}"><h1>Page ${n}</h1>${'<p>text</p>'.repeat(50)}</body></html>`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** What each kind of request asks for and the status it must get; `n` varies the page so most are cache misses. */
const MIX: Array<{ name: string; weight: number; query: (site: string, n: number) => string; status: number; closed?: true }> = [
  { name: 'metadata', weight: 30, query: (site, n) => `url=${encodeURIComponent(`${site}/page/${n}`)}`, status: 200 },
  { name: 'hit', weight: 30, query: (site) => `url=${encodeURIComponent(`${site}/page/0`)}`, status: 200 },
  { name: 'screenshot', weight: 15, query: (site, n) => `url=${encodeURIComponent(`${site}/page/${n}`)}&screenshot&meta=false`, status: 200 },
  { name: 'overlay', weight: 5, query: (site, n) => `url=${encodeURIComponent(`${site}/page/${n}`)}&screenshot.overlay.browser=dark&meta=false`, status: 200 },
  { name: 'pdf', weight: 5, query: (site, n) => `url=${encodeURIComponent(`${site}/page/${n}`)}&pdf&meta=false`, status: 200 },
  { name: 'refused', weight: 5, query: (_site, n) => `url=${encodeURIComponent(`http://10.0.0.${n % 250}/`)}`, status: 403 },
  { name: 'unreachable', weight: 5, query: (closed, n) => `url=${encodeURIComponent(`${closed}/${n}`)}`, status: 502, closed: true },
  { name: 'bad input', weight: 5, query: () => 'url=ftp%3A%2F%2Fexample.com%2F', status: 400 },
];

function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    // A temporary file renamed into place, or a file swept, between the listing and its stat: it is gone.
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

function pick(random: number): (typeof MIX)[number] {
  const total = MIX.reduce((sum, kind) => sum + kind.weight, 0);
  let left = random * total;
  for (const kind of MIX) if ((left -= kind.weight) < 0) return kind;
  return MIX[0]!;
}

/** Smoke: every kind of request once, in turn (the same code, no timed mix), then the hit again: a hit by now. */
const SMOKE_KINDS = [...MIX, MIX.find((kind) => kind.name === 'hit')!];

export const soak: Part = async ({ smoke, log }) => {
  const configured = smoke ? 0 : Number(process.env['SOAK_MINUTES'] ?? 15);
  const site = createHttpServer((req, res) => {
    if (req.url === '/img.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    const n = Number(/^\/page\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE(n));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  // A port nobody listens on: connections are refused, the target's own failure (EFETCH).
  const closedUrl = `http://127.0.0.1:${await unusedPort()}`;
  // Short, so the soak shows the sweep holding the disk (the default keeps files for 31 days).
  // Smoke: the adblock engine prebuilt (tests/helpers/adblock-engine.ts, once per version), not by the service as it starts (a soak's figures are after start-up).
  const service = await startTreeService(ROOT, { GLANCE_RETENTION: `${RETENTION_MINUTES}m`, ...(smoke ? { GLANCE_ADBLOCK_ENGINE: await sharedAdblockEngine() } : {}) });
  const { dir } = service;
  const base = service.url;
  log(smoke ? `each kind through ${base} at concurrency ${CONCURRENCY}` : `soaking ${base} for ${configured} min at concurrency ${CONCURRENCY}`);

  const samples: Array<{ at: number; nodeMiB: number; browserMiB: number; diskMiB: number }> = [];
  const sample = () => {
    // Each direct child's tree once (a browser, its wrapper script, its renderers): deeper pids are inside it.
    const children = childProcesses(service.pid!, () => true);
    const browser = children.reduce((sum, pid) => sum + treeMemory(pid).pssMiB, 0);
    samples.push({
      at: Math.round((performance.now() - started) / 1000),
      nodeMiB: round(treeMemory(service.pid!).pssMiB - browser),
      browserMiB: round(browser),
      diskMiB: round(diskBytes(dir) / 2 ** 20),
    });
  };

  const started = performance.now();
  const end = started + configured * 60_000;
  const smokeKinds = smoke ? [...SMOKE_KINDS] : [];
  const next = (): (typeof MIX)[number] | undefined => (smoke ? smokeKinds.shift() : performance.now() < end ? pick(Math.random()) : undefined);
  const latencies = new Map<string, number[]>(MIX.map((kind) => [kind.name, []]));
  const errors: string[] = [];
  let n = 0;
  let requests = 0;
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let kind = next(); kind; kind = next()) {
        const query = kind.query(kind.closed ? closedUrl : siteUrl, (n += 1));
        const began = performance.now();
        try {
          const response = await fetch(`${base}/?${query}`, { redirect: 'manual' });
          await response.arrayBuffer();
          if (response.status !== kind.status) errors.push(`${kind.name}: ${response.status}, expected ${kind.status}`);
        } catch (error) {
          errors.push(`${kind.name}: ${(error as Error).message}`);
        }
        latencies.get(kind.name)!.push(performance.now() - began);
        requests += 1;
      }
    }),
  );
  clearInterval(sampler);
  sample();
  const minutes = smoke ? (performance.now() - started) / 60_000 : configured;
  await service.close(15_000);
  await new Promise<void>((resolve) => site.close(() => resolve()));

  const first = samples[Math.min(1, samples.length - 1)]!;
  const last = samples.at(-1)!;
  const peak = (key: 'nodeMiB' | 'browserMiB' | 'diskMiB') => Math.max(...samples.map((s) => s[key]));
  return {
    metrics: {
      minutes,
      requests,
      errors: errors.length,
      'node.firstMiB': first.nodeMiB,
      'node.lastMiB': last.nodeMiB,
      'node.peakMiB': peak('nodeMiB'),
      'browser.peakMiB': peak('browserMiB'),
      'disk.lastMiB': last.diskMiB,
    },
    tables: [
      {
        title: `Requests (concurrency ${CONCURRENCY}, ${Number(minutes.toFixed(2))} min)`,
        header: ['kind', 'count', 'p50 ms', 'p99 ms'],
        rows: MIX.map(({ name }) => {
          const times = latencies.get(name)!;
          return [name, String(times.length), times.length ? String(Math.round(percentile(times, 50))) : '-', times.length ? String(Math.round(percentile(times, 99))) : '-'];
        }),
      },
      {
        title: 'Memory and disk over time',
        header: ['s', 'node PSS MiB', 'browser PSS MiB', 'disk MiB'],
        rows: samples.map((s) => [String(s.at), String(s.nodeMiB), String(s.browserMiB), String(s.diskMiB)]),
      },
    ],
    targets: [
      diskTarget(samples, minutes),
      { name: 'errors', goal: '0', measured: String(errors.length), met: errors.length === 0 },
      {
        name: 'node memory flat',
        goal: 'last ≤ first + 64 MiB',
        measured: `${first.nodeMiB} → ${last.nodeMiB} MiB`,
        met: last.nodeMiB <= first.nodeMiB + 64,
      },
    ],
    notes: [...new Set(errors)].slice(0, 10),
  };
};

/** Once files older than the retention are swept, the disk stops growing: the last quarter holds no new peak. */
function diskTarget(samples: Array<{ at: number; diskMiB: number }>, minutes: number) {
  const settled = samples.filter((s) => s.at >= RETENTION_MINUTES * 60 * 1.5);
  if (minutes < RETENTION_MINUTES * 3 || settled.length < 4) {
    return { name: 'disk bounded', goal: `run ≥ ${RETENTION_MINUTES * 3} min to judge`, measured: 'too short', met: true };
  }
  const early = Math.max(...settled.slice(0, Math.ceil(settled.length / 2)).map((s) => s.diskMiB));
  const late = Math.max(...settled.slice(Math.ceil(settled.length / 2)).map((s) => s.diskMiB));
  return { name: 'disk bounded', goal: 'late peak ≤ 1.5 × early peak', measured: `${early} → ${late} MiB`, met: late <= early * 1.5 };
}

await runIfMain('soak', import.meta.url, soak);
