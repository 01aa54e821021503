/**
 * Part 7: insights.technologies on the corpus pages (tests/helpers/corpus.ts, saved HTML with no response headers
 * or cookies, so only the HTML, script-URL and meta rules can fire): how many technologies a page yields, which
 * are most common, what the first request pays to load and compile the rules, and what each page then costs.
 *   ./node_modules/.bin/node --import tsx bench/insights.ts [--smoke]
 */
import './lib/env.ts';
import { collectFacts } from '../lib/extract/collect.ts';
import { detectTechnologies, loadEngine } from '../lib/insights/technologies.ts';
import { loadCorpus } from '../tests/helpers/corpus.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, ms, percentile, round } from './lib/stats.ts';
import { loadDateParsers } from '../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

/** Loading the rules must stay well under a request's budget; a page's match must stay small beside a fetch. */
const LOAD_GOAL_MS = 1500;
const PAGE_GOAL_MS = 50;

export const insights: Part = async ({ smoke, log }) => {
  const pages = loadCorpus().slice(0, smoke ? 5 : undefined);
  const loadStart = performance.now();
  await loadEngine();
  const loadMs = performance.now() - loadStart;
  log(`rules loaded in ${ms(loadMs)}; ${pages.length} pages`);

  const counts: number[] = [];
  const durations: number[] = [];
  const seen = new Map<string, number>();
  for (const page of pages) {
    const started = performance.now();
    const facts = collectFacts(page.html, page.url);
    const found = await detectTechnologies({
      url: page.url,
      html: page.html,
      headers: {},
      cookies: {},
      scriptSrcs: facts.scriptSrcs,
      meta: facts.meta,
    });
    durations.push(performance.now() - started);
    counts.push(found.length);
    for (const { name } of found) seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  const mean = counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length);
  const withAny = counts.filter((n) => n > 0).length / Math.max(1, counts.length);
  const top = [...seen].sort((a, b) => b[1] - a[1]).slice(0, 10);
  const pageMedian = median(durations);
  const pageP95 = percentile(durations, 95);
  return {
    metrics: {
      pages: pages.length,
      loadMs: round(loadMs),
      'page.medianMs': round(pageMedian, 2),
      'page.p95Ms': round(pageP95, 2),
      'technologies.mean': round(mean, 2),
      'technologies.median': median(counts),
      'technologies.max': Math.max(0, ...counts),
      'pages.withAny': round(withAny, 3),
    },
    tables: [
      {
        title: `Technologies per page (${pages.length} corpus pages, HTML only)`,
        header: ['mean', 'median', 'max', 'pages with at least one', 'rules load (first request)', 'per page median', 'per page p95'],
        rows: [[mean.toFixed(2), String(median(counts)), String(Math.max(0, ...counts)), `${(withAny * 100).toFixed(0)} %`, ms(loadMs), ms(pageMedian), ms(pageP95)]],
      },
      { title: 'Most common', header: ['technology', 'pages'], rows: top.map(([name, n]) => [name, String(n)]) },
    ],
    targets: [
      { name: 'rules load once per process', goal: `< ${LOAD_GOAL_MS} ms`, measured: ms(loadMs), met: loadMs < LOAD_GOAL_MS },
      { name: 'matching one page (p95)', goal: `< ${PAGE_GOAL_MS} ms`, measured: ms(pageP95), met: pageP95 < PAGE_GOAL_MS },
    ],
    notes: [
      'Saved pages carry no response headers or cookies: live pages add the header and cookie rules (servers, CDNs, frameworks).',
      'Per page: collecting the facts plus matching every rule; the rules are loaded before the first page is timed.',
    ],
  };
};

await runIfMain('insights', import.meta.url, insights);
