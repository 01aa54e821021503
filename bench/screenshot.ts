/**
 * Part 4: screenshot cost. End-to-end latency of `screenshot=true&meta=false&force=true` through the local
 * service (cache bypassed) beside a bare puppeteer-core capture of the same page (bench/lib/bare.ts), plain and
 * full page; an overlay capture beside the bare plain capture at concurrency 1, 2 and 4 (the overlay's budget is
 * the bare capture + 100 ms); the cost and size of each way to encode the capture; screenshots/s at concurrency
 * 1, 2 and 4; the browser's memory after 500 captures; the warm spare (issue 16): viewport latency at 1, 2 and 4 at
 * once, interleaved with a spare-less service and the bare script, and the idle browser's memory with and without
 * a spare; the CPU each side spends per viewport capture (Chromium's process tree and this process), sequential
 * blocks alternated.
 *   ./node_modules/.bin/node --import tsx bench/screenshot.ts [--smoke] [--only overlay,fullPage]
 * `--only` (or BENCH_ONLY) runs only the listed sections, a comma list of: viewport, fullPage, overlay, encodings,
 * throughput, memory, cpu, spare.
 */
import './lib/env.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { startService, q, type Service } from '../tests/helpers/service.ts';
import { startServer } from '../tests/helpers/server.ts';
import { encode } from '../lib/media/encode.ts';
import { loadSharp } from '../lib/media/sharp.ts';
import { articleRoutes } from './lib/article.ts';
import { launchBare, VIEWPORT, type Bare, type Viewport } from './lib/bare.ts';
import { runIfMain, type Part, type Target } from './lib/part.ts';
import { childProcesses, treeCpuMs, treeMemory, type TreeMemory } from './lib/procmem.ts';
import { mean, median, ms, percentile, times } from './lib/stats.ts';

const MAX_RATIO = 1.15;
/** What an overlay may add to the bare script's plain capture (issue 16). */
const OVERLAY_BUDGET_MS = 100;
/** Issue 16: with the warm spare, a viewport capture at 1, 2 and 4 at once should take ≤ 0.8× the bare script's. */
const MAX_SPARE_RATIO = 0.8;
/** Between the sides of the spare comparison: longer than a spare's making and a page's close (~100–300 ms here). */
const SIDE_PAUSE_MS = 600;
const CONCURRENCY_LEVELS = [1, 2, 4] as const;
const SECTIONS = ['viewport', 'fullPage', 'overlay', 'encodings', 'throughput', 'memory', 'cpu', 'spare'] as const;
const onlyArg = process.argv.find((_arg, i, all) => all[i - 1] === '--only') ?? process.argv.find((arg) => arg.startsWith('--only='))?.slice(7);
const only = (onlyArg ?? process.env['BENCH_ONLY'])?.split(',').map((name) => name.trim()).filter(Boolean);
const unknownSections = only?.filter((name) => !(SECTIONS as readonly string[]).includes(name)) ?? [];
if (unknownSections.length > 0) throw new Error(`unknown section(s) ${unknownSections.join(', ')}; sections are ${SECTIONS.join(', ')}`);
const runs = (section: string): boolean => !only || only.includes(section);
const OVERLAY_QUERY = `screenshot.overlay.browser=dark&screenshot.overlay.background=${encodeURIComponent('linear-gradient(135deg, #fbc2eb, #a6c1ee)')}`;


interface Counts {
  warmup: number;
  latency: number;
  fullPage: number;
  /** Rounds per concurrency: each round is `concurrency` overlay captures at once, then as many bare ones. */
  overlayRounds: number;
  encodeRuns: number;
  throughputTotal: number;
  memoryAfter: number;
  /** CPU per capture: `cpuRounds` rounds, each a block of `cpuBlock` sequential captures per side. */
  cpuRounds: number;
  cpuBlock: number;
  /** Rounds per concurrency level of the interleaved Glance / Glance without spare / bare comparison. */
  rounds: Record<(typeof CONCURRENCY_LEVELS)[number], number>;
  /** The overlay's and the spare's levels of concurrency (a smoke's 2 runs the code its 1 and 4 run). */
  levels: ReadonlyArray<(typeof CONCURRENCY_LEVELS)[number]>;
  /**
   * Before each side of the spare and CPU comparisons, and before the idle memory reading: what a side does after
   * its answers lands on nobody's clock. A smoke reads no figure, so it does not wait.
   */
  pauseMs: number;
  settleMs: number;
  /** The device of every capture, both sides. */
  device: Viewport;
  /** The page of the full-page captures. */
  longPath: string;
}

const FULL: Counts = {
  warmup: 3, latency: 25, fullPage: 15, overlayRounds: 12, encodeRuns: 15, throughputTotal: 24, memoryAfter: 500, cpuRounds: 6, cpuBlock: 10,
  rounds: { 1: 25, 2: 16, 4: 16 }, levels: CONCURRENCY_LEVELS, pauseMs: SIDE_PAUSE_MS, settleMs: 1000,
  device: VIEWPORT, longPath: '/long',
};
const SMOKE: Counts = {
  warmup: 0, latency: 1, fullPage: 1, overlayRounds: 1, encodeRuns: 1, throughputTotal: 2, memoryAfter: 0, cpuRounds: 2, cpuBlock: 1,
  rounds: { 1: 1, 2: 1, 4: 1 }, levels: [1, 4], pauseMs: 0, settleMs: 0,
  // A smoke runs every step of the code with a sixteenth of the pixels to encode: its figures are not read.
  device: { width: 640, height: 400, deviceScaleFactor: 1 }, longPath: '/article',
};

/** The single Chromium child of this process whose command line matches (Glance's has its proxy flag). */
function browserPid(test: (cmdline: string) => boolean): number {
  const pids = childProcesses(process.pid, (cmdline) => cmdline.includes('chrom') && test(cmdline));
  if (pids.length !== 1) throw new Error(`expected one such browser process, found ${pids.length}`);
  return pids[0]!;
}

export const screenshot: Part = async ({ smoke, log }) => {
  const counts = smoke ? SMOKE : FULL;
  const site = await startServer(articleRoutes());
  // One browser for the whole run, so the memory after 500 captures is one browser's: spares count as pages too
  // (GLANCE_BROWSER_MAX_PAGES, default 500, would retire it just before the end).
  const service: Service = await startService({ env: { GLANCE_BROWSER_MAX_PAGES: '100000' } });
  const bare: Bare = await launchBare(counts.device);
  const { width, height, deviceScaleFactor } = counts.device;
  const device = counts.device === VIEWPORT ? '' : `&viewport.width=${width}&viewport.height=${height}&viewport.deviceScaleFactor=${deviceScaleFactor}`;
  let glanceCaptures = 0;
  const timingSpans = new Map<string, number[]>();
  const sizes = new Map<string, string>();

  const glanceShot = async (label: string, path: string, extra = '', on: Service = service): Promise<void> => {
    // A target address of its own per request: concurrent requests for one cache key would share one capture.
    const target = `${site.url}${path}?n=${glanceCaptures + Math.random()}`;
    const response = await on.request(q(target, `screenshot=true&meta=false&force=true${device}${extra ? `&${extra}` : ''}`));
    const body = (await response.json()) as { data?: { screenshot?: { width: number; height: number } } };
    const shot = body.data?.screenshot;
    if (response.status !== 200 || !shot) throw new Error(`screenshot failed: ${response.status} ${JSON.stringify(body)}`);
    sizes.set(label, `${shot.width}×${shot.height}`);
    for (const span of (response.headers.get('server-timing') ?? '').split(',')) {
      const match = /^\s*([\w-]+);dur=([\d.]+)/.exec(span);
      if (match) timingSpans.set(`${label}: ${match[1]}`, [...(timingSpans.get(`${label}: ${match[1]}`) ?? []), Number(match[2])]);
    }
    glanceCaptures++;
  };
  const bareShot = async (label: string, path: string, options: Parameters<Bare['capture']>[1] = {}): Promise<void> => {
    const png = await bare.capture(`${site.url}${path}?n=${Math.random()}`, options);
    sizes.set(`bare ${label}`, `${png.readUInt32BE(16)}×${png.readUInt32BE(20)}`);
  };

  interface Case { name: string; glance: () => Promise<void>; bare: () => Promise<unknown>; runs: number }
  const cases: Case[] = [
    { name: 'viewport', glance: () => glanceShot('viewport', '/article'), bare: () => bareShot('viewport', '/article'), runs: counts.latency },
    {
      name: 'fullPage',
      glance: () => glanceShot('fullPage', counts.longPath, 'screenshot.fullPage=true'),
      bare: () => bareShot('fullPage', counts.longPath, { fullPage: true }),
      runs: counts.fullPage,
    },
  ];
  const metrics: Record<string, number> = {};
  const latencyRows: string[][] = [];
  const targets: Target[] = [];
  for (const c of cases.filter(({ name }) => runs(name))) {
    for (let i = 0; i < counts.warmup; i++) {
      await c.glance();
      await c.bare();
    }
    const ours: number[] = [];
    const theirs: number[] = [];
    // Interleaved, so drift (thermal, page cache, GC) lands on both sides alike.
    for (let i = 0; i < c.runs; i++) {
      let t = performance.now();
      await c.glance();
      ours.push(performance.now() - t);
      t = performance.now();
      await c.bare();
      theirs.push(performance.now() - t);
    }
    const ratio = median(ours) / median(theirs);
    const key = c.name;
    if (sizes.get(key) !== sizes.get(`bare ${key}`)) throw new Error(`${key}: Glance made ${sizes.get(key)}, bare ${sizes.get(`bare ${key}`)}`);
    metrics[`${key}.glanceMs`] = median(ours);
    metrics[`${key}.bareMs`] = median(theirs);
    metrics[`${key}.ratio`] = ratio;
    log(`${c.name}: ${ms(median(ours))} vs ${ms(median(theirs))} (${times(ratio)})`);
    latencyRows.push([`${c.name} (${sizes.get(key)} png)`, ms(median(ours)), ms(percentile(ours, 90)), ms(median(theirs)), ms(percentile(theirs, 90)), `**${times(ratio)}**`, `${c.runs}`]);
    targets.push({ name: `screenshot latency: ${key}`, goal: `≤ ${MAX_RATIO}× bare puppeteer`, measured: times(ratio), met: ratio <= MAX_RATIO });
  }

  // Overlay: Glance's framed capture against the bare script's plain one, `concurrency` at a time, rounds
  // interleaved (Glance's round, then bare's), each request timed on its own.
  const overlayRows: string[][] = [];
  const timed = async (shot: () => Promise<void>): Promise<number> => {
    const t = performance.now();
    await shot();
    return performance.now() - t;
  };
  for (const concurrency of runs('overlay') ? counts.levels : []) {
    const ours: number[] = [];
    const theirs: number[] = [];
    const together = (shot: () => Promise<void>) => Promise.all(Array.from({ length: concurrency }, () => timed(shot)));
    for (let i = 0; i < counts.warmup; i++) await together(() => glanceShot('overlay', '/article', OVERLAY_QUERY));
    for (let round = 0; round < counts.overlayRounds; round++) {
      ours.push(...(await together(() => glanceShot('overlay', '/article', OVERLAY_QUERY))));
      theirs.push(...(await together(() => bareShot('viewport', '/article'))));
    }
    const added = median(ours) - median(theirs);
    const key = `overlay.c${concurrency}`;
    metrics[`${key}.glanceMs`] = median(ours);
    metrics[`${key}.bareMs`] = median(theirs);
    metrics[`${key}.addedMs`] = added;
    const signed = `${added >= 0 ? '+' : ''}${ms(added)}`;
    log(`overlay, concurrency ${concurrency}: ${ms(median(ours))} vs bare plain ${ms(median(theirs))} (${signed})`);
    overlayRows.push([`${concurrency}`, ms(median(ours)), ms(percentile(ours, 90)), ms(median(theirs)), ms(percentile(theirs, 90)), `**${signed}**`, `${ours.length}`]);
    targets.push({
      name: `overlay latency, concurrency ${concurrency}`,
      goal: `≤ bare plain capture + ${OVERLAY_BUDGET_MS} ms`,
      measured: signed,
      met: added <= OVERLAY_BUDGET_MS,
    });
  }

  const encodeRows = !runs('encodings') ? [] : await encodings(bare, `${site.url}/article`, counts.encodeRuns);

  // Throughput: `concurrency` callers, each taking the next capture until `total` are done.
  const rate = async (concurrency: number, shot: () => Promise<unknown>): Promise<number> => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < counts.throughputTotal) await shot();
      }),
    );
    return counts.throughputTotal / ((performance.now() - started) / 1000);
  };
  const rateRows: string[][] = [];
  for (const concurrency of runs('throughput') ? [1, 2, 4] : []) {
    const ours = await rate(concurrency, () => glanceShot('viewport', '/article'));
    const theirs = await rate(concurrency, () => bareShot('viewport', '/article'));
    metrics[`c${concurrency}.glancePerSecond`] = ours;
    metrics[`c${concurrency}.barePerSecond`] = theirs;
    log(`concurrency ${concurrency}: ${ours.toFixed(2)}/s vs ${theirs.toFixed(2)}/s`);
    rateRows.push([`${concurrency}`, ours.toFixed(2), theirs.toFixed(2), times(theirs / ours)]);
  }

  // A section run alone starts cold: Glance's browser is launched on its first capture, and the rows below read it.
  if (glanceCaptures === 0) await glanceShot('viewport', '/article');
  // Memory: Glance's browser (the Chromium child with the proxy flag only Glance passes) after 500 captures.
  const glancePid = browserPid((cmdline) => cmdline.includes('--proxy-server='));
  const barePid = browserPid((cmdline) => !cmdline.includes('--proxy-server='));
  const before: TreeMemory = treeMemory(glancePid);
  const beforeCount = glanceCaptures;
  let next = glanceCaptures;
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      while (next++ < (runs('memory') ? counts.memoryAfter : 0)) await glanceShot('viewport', '/article');
    }),
  );
  const after = treeMemory(glancePid);
  const bareMemory = treeMemory(barePid);
  if (browserPid((cmdline) => cmdline.includes('--proxy-server=')) !== glancePid) throw new Error('Glance relaunched its browser');
  metrics['memory.captures'] = glanceCaptures;
  metrics['memory.rssMiB'] = after.rssMiB;
  metrics['memory.pssMiB'] = after.pssMiB;
  metrics['memory.processes'] = after.processes;
  if (runs('memory')) log(`memory after ${glanceCaptures} captures: RSS ${after.rssMiB.toFixed(0)} MiB, PSS ${after.pssMiB.toFixed(0)} MiB`);
  const memoryRows = [
    [`Glance's browser after ${beforeCount} captures (before the top-up)`, `${before.processes}`, before.rssMiB.toFixed(0), before.pssMiB.toFixed(0)],
    [`Glance's browser after ${glanceCaptures} captures`, `${after.processes}`, `**${after.rssMiB.toFixed(0)}**`, `**${after.pssMiB.toFixed(0)}**`],
    ['bare puppeteer browser (same moment, fewer captures)', `${bareMemory.processes}`, bareMemory.rssMiB.toFixed(0), bareMemory.pssMiB.toFixed(0)],
  ];

  // CPU per viewport capture (issue 16: at concurrency 4 both cores are busy, so latency follows it): blocks of
  // sequential captures, sides alternating which goes first. Each block is read after a pause, so the spare Glance
  // makes after its last capture counts to Glance, as a page made per capture counts to the bare script.
  const cpuRows: string[][] = [];
  if (runs('cpu')) {
    const cpuSides = { glance: { pid: glancePid, shot: () => glanceShot('viewport', '/article') }, bare: { pid: barePid, shot: () => bareShot('viewport', '/article') } };
    const spent: Record<keyof typeof cpuSides, { chromium: number[]; node: number[] }> = { glance: { chromium: [], node: [] }, bare: { chromium: [], node: [] } };
    const pause = () => sleep(counts.pauseMs);
    for (let round = 0; round < counts.cpuRounds; round++) {
      for (const side of round % 2 === 0 ? (['glance', 'bare'] as const) : (['bare', 'glance'] as const)) {
        await pause();
        const [chromium, node] = [treeCpuMs(cpuSides[side].pid), process.cpuUsage()];
        for (let i = 0; i < counts.cpuBlock; i++) await cpuSides[side].shot();
        await pause();
        const used = process.cpuUsage(node);
        spent[side].chromium.push((treeCpuMs(cpuSides[side].pid) - chromium) / counts.cpuBlock);
        spent[side].node.push((used.user + used.system) / 1000 / counts.cpuBlock);
      }
    }
    const total = (side: keyof typeof cpuSides) => median(spent[side].chromium) + median(spent[side].node);
    for (const side of ['glance', 'bare'] as const) {
      metrics[`cpu.${side}.chromiumMs`] = median(spent[side].chromium);
      metrics[`cpu.${side}.nodeMs`] = median(spent[side].node);
      cpuRows.push([side === 'glance' ? 'Glance (service, proxy, interception, storing)' : 'bare script', ms(median(spent[side].chromium)), ms(median(spent[side].node)), ms(total(side)), `${spent[side].node.length} × ${counts.cpuBlock}`]);
    }
    metrics['cpu.ratio'] = total('glance') / total('bare');
    log(`CPU per viewport capture: Glance ${ms(total('glance'))}, bare ${ms(total('bare'))} (${times(total('glance') / total('bare'))})`);
  }

  // The warm spare (issue 16): Glance as configured (spares on), a second service with GLANCE_BROWSER_SPARE=false,
  // and the bare script, each taking `concurrency` viewport captures at once, in turn, round after round. Each side
  // starts after a pause, as a burst after idle time would: what a side does after its answers (Glance's pages
  // closing, its spares being made) then lands on nobody's clock, not on the next side's.
  const running = new Set(childProcesses(process.pid, (cmdline) => cmdline.includes('chrom')));
  const plain: Service = await startService({ env: { GLANCE_BROWSER_SPARE: 'false', GLANCE_BROWSER_MAX_PAGES: '100000' } });
  const sides = {
    glance: () => glanceShot('viewport', '/article'),
    'no spare': () => glanceShot('no spare: viewport', '/article', '', plain),
    bare: () => bareShot('viewport', '/article'),
  };
  for (let i = 0; i < (runs('spare') ? Math.max(1, counts.warmup) : 0); i++) {
    for (const side of Object.values(sides)) await side();
  }
  const plainPid = childProcesses(process.pid, (cmdline) => cmdline.includes('--proxy-server=')).find((pid) => !running.has(pid));
  const concurrencyRows: string[][] = [];
  for (const concurrency of runs('spare') ? counts.levels : []) {
    const samples: Record<keyof typeof sides, number[]> = { glance: [], 'no spare': [], bare: [] };
    const order = Object.keys(sides) as Array<keyof typeof sides>;
    for (let round = 0; round < counts.rounds[concurrency]; round++) {
      // Who goes first rotates, so no side always follows the same one.
      for (const side of [...order.slice(round % 3), ...order.slice(0, round % 3)]) {
        await sleep(counts.pauseMs);
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            const t = performance.now();
            await sides[side]();
            samples[side].push(performance.now() - t);
          }),
        );
      }
    }
    const [ours, off, theirs] = [median(samples.glance), median(samples['no spare']), median(samples.bare)];
    metrics[`spare.c${concurrency}.glanceMs`] = ours;
    metrics[`spare.c${concurrency}.noSpareMs`] = off;
    metrics[`spare.c${concurrency}.bareMs`] = theirs;
    metrics[`spare.c${concurrency}.ratio`] = ours / theirs;
    log(`concurrency ${concurrency}: Glance ${ms(ours)}, without spare ${ms(off)}, bare ${ms(theirs)} (${times(ours / theirs)})`);
    concurrencyRows.push([
      `${concurrency}`,
      ms(ours),
      ms(percentile(samples.glance, 90)),
      ms(off),
      ms(theirs),
      ms(percentile(samples.bare, 90)),
      `**${times(ours / theirs)}**`,
      times(mean(samples.glance) / mean(samples.bare)),
      times(off / theirs),
      `${samples.glance.length}`,
    ]);
    targets.push({
      name: `viewport capture at concurrency ${concurrency}, interleaved`,
      goal: `≤ ${MAX_SPARE_RATIO}× bare puppeteer`,
      measured: times(ours / theirs),
      met: ours / theirs <= MAX_SPARE_RATIO,
    });
  }
  // Both services idle (a spare per free slot ready on Glance's side): what the spares cost in memory.
  await sleep(counts.settleMs);
  const withSpare = treeMemory(glancePid);
  const withoutSpare = plainPid === undefined ? undefined : treeMemory(plainPid);
  if (withoutSpare) {
    metrics['spare.memory.rssMiB'] = withSpare.rssMiB - withoutSpare.rssMiB;
    metrics['spare.memory.pssMiB'] = withSpare.pssMiB - withoutSpare.pssMiB;
  }
  const spareMemoryRows = [
    ['Glance (GLANCE_BROWSER_SPARE on, a spare per free slot ready)', `${withSpare.processes}`, withSpare.rssMiB.toFixed(0), withSpare.pssMiB.toFixed(0)],
    ...(withoutSpare ? [['Glance with GLANCE_BROWSER_SPARE=false', `${withoutSpare.processes}`, withoutSpare.rssMiB.toFixed(0), withoutSpare.pssMiB.toFixed(0)]] : []),
  ];
  await plain.close();

  const spanRows = [...timingSpans.entries()].map(([name, values]) => [name, ms(median(values)), `${values.length}`]);
  await bare.close();
  await service.close();
  await site.close();
  return {
    metrics,
    tables: [
      {
        title: 'End-to-end latency per capture (Glance: HTTP request to JSON answer, image stored; bare: the PNG in hand)',
        header: ['case', 'Glance median', 'Glance p90', 'bare median', 'bare p90', 'Glance / bare', 'runs each'],
        rows: latencyRows,
      },
      {
        title: `Overlay (dark window on a gradient, ${sizes.get('overlay')} png) against the bare script's plain capture (${sizes.get('bare viewport')}), per request`,
        header: ['concurrency', 'Glance overlay median', 'p90', 'bare plain median', 'p90', 'overlay − bare', 'requests each'],
        rows: overlayRows,
      },
      {
        title: `Encoding one ${width * deviceScaleFactor}×${height * deviceScaleFactor} capture of the article page (bare browser, page loaded once; median of ${counts.encodeRuns}, variants interleaved)`,
        header: ['encoding', 'median', 'bytes'],
        rows: encodeRows,
      },
      {
        title: `Viewport capture latency at ${counts.levels.join(', ')} at once, interleaved round by round (each side after a ${counts.pauseMs} ms pause): Glance (spares on), Glance with GLANCE_BROWSER_SPARE=false, bare`,
        header: ['concurrency', 'Glance median', 'Glance p90', 'no spare median', 'bare median', 'bare p90', 'Glance / bare', 'Glance / bare, means', 'no spare / bare', 'samples each'],
        rows: concurrencyRows,
      },
      {
        title: 'CPU per viewport capture, medians of sequential blocks (Chromium: its process tree from /proc, reaped renderers included; Node: this process, which also serves the article page to both)',
        header: ['side', 'Chromium', 'Node', 'total', 'blocks × captures'],
        rows: cpuRows,
      },
      { title: 'Idle browser process tree with and without the spares (from /proc; MiB)', header: ['browser', 'processes', 'RSS sum', 'PSS sum'], rows: runs('spare') ? spareMemoryRows : [] },
      { title: `Screenshots per second (${counts.throughputTotal} captures per cell)`, header: ['concurrency', 'Glance', 'bare puppeteer', 'bare / Glance'], rows: rateRows },
      { title: 'Chromium process tree memory (from /proc; MiB)', header: ['browser', 'processes', 'RSS sum', 'PSS sum'], rows: runs('memory') ? memoryRows : [] },
      { title: "Glance's server-timing spans, medians over every capture", header: ['case: span', 'median', 'samples'], rows: spanRows },
    ].filter((table) => table.rows.length > 0),
    targets,
    notes: [
      'Same Chromium binary for both (Debian chromium-headless-shell, headless "shell" mode). Glance is the local service in this ' +
        'process (tests/helpers/service.ts: 127.0.0.1 allowed, temporary storage and cache); bare is bench/lib/bare.ts.',
      "Overlay: Glance's whole request (capture, composition with sharp, storing) against the bare script's plain PNG of the same page; at concurrency 4 Glance's limit of two pages at a time applies.",
      "Encoding: 'Chromium' rows are Page.captureScreenshot's own encoders; 'sharp' rows take Chromium's speed-optimised PNG and re-encode it with Glance's settings (lib/media/encode.ts), the time of both together.",
      'RSS sums count shared pages once per process, so they overstate; PSS divides shared pages among their processes.',
    ],
  };
};

/** Each way to encode one capture of `url`: milliseconds (median) and bytes. */
async function encodings(bare: Bare, url: string, runs: number): Promise<string[][]> {
  const sharp = await loadSharp();
  const context = await bare.browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport(bare.viewport);
    await page.goto(url, { waitUntil: 'load' });
    const fast = async () => Buffer.from(await page.screenshot({ type: 'png', optimizeForSpeed: true }));
    const variants: Array<[string, () => Promise<Buffer>]> = [
      ['Chromium PNG (default)', async () => Buffer.from(await page.screenshot({ type: 'png' }))],
      ['Chromium PNG, optimizeForSpeed', fast],
      [`Chromium PNG fast → sharp PNG (Glance's overlay encoding)`, async () => encode(sharp(await fast()), { type: 'png', quality: 80 })],
      ['Chromium JPEG q80', async () => Buffer.from(await page.screenshot({ type: 'jpeg', quality: 80 }))],
      ['Chromium PNG fast → sharp JPEG q80', async () => encode(sharp(await fast()), { type: 'jpeg', quality: 80 })],
      ['Chromium WebP q80', async () => Buffer.from(await page.screenshot({ type: 'webp', quality: 80 }))],
      [`Chromium PNG fast → sharp WebP q80 (Glance's webp)`, async () => encode(sharp(await fast()), { type: 'webp', quality: 80 })],
    ];
    const results = variants.map(() => ({ times: [] as number[], bytes: 0 }));
    for (let run = 0; run < runs; run++) {
      for (const [i, [, make]] of variants.entries()) {
        const t = performance.now();
        const body = await make();
        results[i]!.times.push(performance.now() - t);
        results[i]!.bytes = body.length;
      }
    }
    return variants.map(([name], i) => [name, ms(median(results[i]!.times)), `${(results[i]!.bytes / 1024).toFixed(0)} KiB`]);
  } finally {
    await context.close();
  }
}

await runIfMain('screenshot', import.meta.url, screenshot);
