/**
 * Part 15 (issue 24): throughput of the local service at concurrency 4 with its CPU work off the event loop, this
 * checkout beside another (`--base <dir>`, a worktree of an earlier commit with this checkout's node_modules linked
 * in): the default metadata path, and requests with CPU-heavy work (ten `data` rules, three of them Markdown, and
 * technology detection). Each tree's service runs in a child process (bench/lib/tree-service.ts), cache off, both
 * started before the first round; rounds alternate which tree goes first, so the machine's swings fall on both.
 *   GLANCE_FIXTURES=… ./node_modules/.bin/node --import tsx bench/work.ts [--base <dir>] [--smoke]
 */
import './lib/env.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../tests/helpers/corpus.ts';
import { html, startServer, type Route } from '../tests/helpers/server.ts';
import { runIfMain, type Part, type Target } from './lib/part.ts';
import { median, round, times } from './lib/stats.ts';
import { startTreeService, type TreeService } from './lib/tree-service.ts';
import { sharedAdblockEngine } from '../tests/helpers/adblock-engine.ts';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const CONCURRENCY = 4;

/** Ten rules of the kinds people write, three of them Markdown: headings, links, images, prices, the article. */
const TEN_RULES = [
  'data.h1.selector=h1&data.h1.attr=text',
  'data.h2.selectorAll=h2&data.h2.attr=text',
  'data.links.selectorAll=a&data.links.attr=href&data.links.type=url',
  'data.images.selectorAll=img&data.images.attr=src&data.images.type=url',
  'data.lede.selector=p&data.lede.attr=text',
  'data.times.selectorAll=time&data.times.attr=datetime',
  'data.nav.selector=nav&data.nav.attr=markdown',
  'data.first.selector=article&data.first.attr=markdown',
  'data.page.attr=markdown',
  'data.meta.selectorAll=meta&data.meta.attr=content',
].join('&');

/**
 * `ping=false`: the corpus's media URLs name hosts on the internet, which this machine cannot reach; their lookups
 * would be what is measured, not the CPU work. `insights.lighthouse=false`: the detection alone (`insights` turns a
 * Lighthouse report on by default, a browser's work).
 */
const CASES = [
  { name: 'metadata', query: 'ping=false' },
  { name: 'ten rules + technologies', query: `ping=false&${TEN_RULES}&insights.technologies&insights.lighthouse=false` },
] as const;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Requests answered per second by `service` for `seconds`, `CONCURRENCY` at a time, cycling through `targets`. */
async function load(service: TreeService, targets: readonly string[], query: string, seconds: number): Promise<{ rps: number; failed: number }> {
  const end = performance.now() + seconds * 1000;
  let next = 0;
  let answered = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const target = targets[next++ % targets.length]!;
        const response = await fetch(`${service.url}/?url=${encodeURIComponent(target)}${query ? `&${query}` : ''}`);
        await response.arrayBuffer();
        if (response.status === 200) answered++;
        else failed++;
      }
    }),
  );
  return { rps: answered / seconds, failed };
}

export const work: Part = async ({ smoke, log }) => {
  const base = argument('--base');
  const pages = loadCorpus().slice(0, smoke ? 4 : 60);
  const routes: Record<string, Route> = {};
  pages.forEach((page, i) => (routes[`/p/${i}`] = html(page.html)));
  const site = await startServer(routes);
  const targets = pages.map((_, i) => `${site.url}/p/${i}`);
  const trees: [string, string][] = [['this checkout', HERE], ...(base ? [['base', base] as [string, string]] : [])];
  const services = new Map<string, TreeService>();
  const rounds = smoke ? 1 : 7;
  const seconds = smoke ? 1 : 10;
  // Between loads: the last one's stragglers settle off the next one's clock (a smoke reads no rate).
  const settleMs = smoke ? 0 : 500;
  const rates = new Map<string, number[]>();
  const failures = new Map<string, number>();
  const metrics: Record<string, number> = {};
  try {
    // No capture here: the adblock engine is prebuilt for both (tests/helpers/adblock-engine.ts), not by each service as it starts.
    const adblock = { GLANCE_CACHE: 'off', GLANCE_ADBLOCK_ENGINE: await sharedAdblockEngine() };
    for (const [label, tree] of trees) services.set(label, await startTreeService(tree, adblock));
    // Every page once through every case first: modules, workers and the JIT warm.
    for (const service of services.values()) for (const { query } of CASES) await load(service, targets, query, smoke ? 1 : 5);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? trees : [...trees].reverse();
      for (const { name, query } of CASES) {
        for (const [label] of order) {
          await sleep(settleMs);
          const { rps, failed } = await load(services.get(label)!, targets, query, seconds);
          log(`round ${round + 1}: ${label}, ${name}: ${rps.toFixed(1)} requests/s${failed ? `, ${failed} failed` : ''}`);
          const key = `${label === 'base' ? 'base' : 'this'}.${name}`;
          rates.set(key, [...(rates.get(key) ?? []), rps]);
          failures.set(key, (failures.get(key) ?? 0) + failed);
        }
      }
    }
  } finally {
    await Promise.all([...services.values()].map((service) => service.close()));
    await site.close();
  }
  const rows: string[][] = [];
  const targetsMet: Target[] = [];
  for (const { name } of CASES) {
    const ours = median(rates.get(`this.${name}`)!);
    metrics[`this.${name}.rps`] = round(ours, 2);
    const theirs = base ? median(rates.get(`base.${name}`)!) : Number.NaN;
    if (base) metrics[`base.${name}.rps`] = round(theirs, 2);
    rows.push([name, ours.toFixed(1), base ? theirs.toFixed(1) : '—', base ? times(ours / theirs) : '—', (rates.get(`this.${name}`) ?? []).map((r) => r.toFixed(1)).join(', ')]);
    const failed = failures.get(`this.${name}`) ?? 0;
    targetsMet.push({ name: `${name}: every request answered`, goal: '200, none failed', measured: `${failed} failed`, met: failed === 0 });
    if (!base) continue;
    const goal = name === 'metadata' ? 1 : 1.5;
    targetsMet.push({ name: `${name} at concurrency ${CONCURRENCY}`, goal: `≥ ${goal}× the base`, measured: times(ours / theirs), met: ours / theirs >= goal });
  }
  return {
    metrics,
    tables: [
      {
        title: `Requests per second at concurrency ${CONCURRENCY}, ${pages.length} corpus pages in turn, median of ${rounds} rounds of ${seconds} s`,
        header: ['requests', 'this checkout', 'base', 'ratio', 'this checkout, each round'],
        rows,
      },
    ],
    targets: targetsMet,
    notes: [`Rules: ${TEN_RULES.replaceAll('&', ' & ')}.`, 'Both services run from the start, cache off; rounds alternate which tree goes first.'],
  };
};

await runIfMain('work', import.meta.url, work);
