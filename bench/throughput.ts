/**
 * Part 2: extraction throughput on the corpus, one process, one page at a time, after a warm-up pass: pages/s
 * (median over passes) and ms/page (median over pages of each page's median over passes).
 *   ./node_modules/.bin/node --import tsx bench/throughput.ts [--smoke]
 */
import { loadCorpus } from '../tests/helpers/corpus.ts';
import { glance, metascraperFull, metascraperLean, openGraphScraper, type Extractor } from './lib/extractors.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, percentile, round, times } from './lib/stats.ts';

interface Plan {
  extractor: Extractor;
  /** Pages extracted before measuring (the JIT and the libraries' lazy set-up warm up). */
  warmup: number;
  passes: number;
}

/**
 * The slow extractors get fewer passes: metascraper with readability spends about a minute on one pass of the
 * corpus, and the lean variant (information only) gets one, so that `npm run bench` stays within 15 minutes.
 */
const PLANS: Plan[] = [
  { extractor: glance, warmup: Infinity, passes: 10 },
  { extractor: openGraphScraper, warmup: Infinity, passes: 3 },
  { extractor: metascraperLean, warmup: 20, passes: 1 },
  { extractor: metascraperFull, warmup: 20, passes: 2 },
];

export const throughput: Part = async ({ smoke, log }) => {
  const corpus = loadCorpus();
  const pages = smoke ? corpus.filter((_, index) => index % 40 === 0) : corpus;
  const rows: Array<{ name: string; pagesPerSecond: number; medianMs: number; p90Ms: number }> = [];
  for (const { extractor, warmup, passes } of PLANS) {
    for (const page of pages.slice(0, smoke ? 2 : warmup)) await extractor.extract(page);
    const perPage: number[][] = pages.map(() => []);
    const rates: number[] = [];
    for (let pass = 0; pass < (smoke ? 1 : passes); pass++) {
      const started = performance.now();
      for (const [index, page] of pages.entries()) {
        const t = performance.now();
        await extractor.extract(page);
        perPage[index]!.push(performance.now() - t);
      }
      rates.push(pages.length / ((performance.now() - started) / 1000));
    }
    const pageMedians = perPage.map(median);
    const row = { name: extractor.name, pagesPerSecond: median(rates), medianMs: median(pageMedians), p90Ms: percentile(pageMedians, 90) };
    log(`${row.name}: ${row.pagesPerSecond.toFixed(1)} pages/s, median ${row.medianMs.toFixed(2)} ms/page`);
    rows.push(row);
  }

  const ours = rows[0]!;
  const byName = (name: string) => rows.find((row) => row.name === name)!;
  const vsFull = ours.pagesPerSecond / byName(metascraperFull.name).pagesPerSecond;
  const vsLean = ours.pagesPerSecond / byName(metascraperLean.name).pagesPerSecond;
  const metrics: Record<string, number> = { pages: pages.length, 'glance/metascraper': vsFull, 'glance/metascraper-no-readability': vsLean };
  for (const row of rows) {
    metrics[`${row.name}.pagesPerSecond`] = row.pagesPerSecond;
    metrics[`${row.name}.medianMs`] = row.medianMs;
  }
  return {
    metrics,
    tables: [
      {
        title: `Extraction of ${pages.length} corpus pages (HTML string in, fields out; single process, sequential)`,
        header: ['extractor', 'pages/s', 'median ms/page', 'p90 ms/page', 'Glance is … faster (pages/s)'],
        rows: rows.map((row) => [
          row.name,
          row.pagesPerSecond.toFixed(1),
          round(row.medianMs, 2).toFixed(2),
          round(row.p90Ms, 2).toFixed(2),
          row === ours ? '—' : times(ours.pagesPerSecond / row.pagesPerSecond),
        ]),
      },
    ],
    targets: [
      { name: 'extraction throughput', goal: '≥ 3× metascraper', measured: `${times(vsFull)} (${times(vsLean)} without readability)`, met: vsFull >= 3 },
    ],
    notes: [
      `Warm-up: one pass of the corpus (Glance, open-graph-scraper) or ${PLANS[3]!.warmup} pages (metascraper); then ` +
        PLANS.map((p) => `${p.passes} pass${p.passes === 1 ? '' : 'es'} of ${p.extractor.name}`).join(', ') + '.',
      'Same offline stubs as the accuracy part; metascraper (no readability) is shown because readability (happy-dom + ' +
        '@mozilla/readability) is about half of metascraper\'s time.',
    ],
  };
};

await runIfMain('throughput', import.meta.url, throughput);
