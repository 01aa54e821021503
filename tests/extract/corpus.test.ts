/**
 * Agreement with the peer corpora (metascraper's and open-graph-scraper's saved pages and expected values),
 * per corpus and per field, must not fall below the committed baseline: a rule change that loses pages fails.
 * Raise corpus-baseline.json when a change wins pages (`UPDATE_BASELINE=1` rewrites it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { extractMetadata } from '../../lib/extract/index.ts';
import {
  SCORED_FIELDS, formatTable, loadCorpus, scorePage, summarise, type PageResult, type Summary,
} from '../helpers/corpus.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const BASELINE = new URL('./corpus-baseline.json', import.meta.url);

type Baseline = Record<string, Record<string, number>>;

test('corpus agreement per field is at least the committed baseline', () => {
  const pages = loadCorpus();
  assert.ok(pages.length > 100, `expected the peer corpora, found ${pages.length} pages`);
  const results: PageResult[] = pages.map((page) =>
    scorePage(page, extractMetadata({ html: page.html, url: page.url }).values),
  );
  const columns: Record<string, Summary> = {};
  for (const peer of [...new Set(results.map((r) => r.peer))]) {
    columns[peer] = summarise(results.filter((r) => r.peer === peer));
  }
  columns['all'] = summarise(results);
  console.log(formatTable(columns));

  const reached: Baseline = {};
  for (const [column, summary] of Object.entries(columns)) {
    reached[column] = {};
    for (const field of SCORED_FIELDS) reached[column][field] = Math.floor(summary.fields[field].ratio * 1000) / 1000;
    reached[column]['overall'] = Math.floor(summary.overall.ratio * 1000) / 1000;
  }
  if (process.env['UPDATE_BASELINE']) writeFileSync(BASELINE, `${JSON.stringify(reached, null, 2)}\n`);

  const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline;
  const regressions: string[] = [];
  for (const [column, fields] of Object.entries(baseline)) {
    for (const [field, floor] of Object.entries(fields)) {
      const now = reached[column]?.[field];
      if (now === undefined || now < floor) regressions.push(`${column}.${field}: ${now} < ${floor}`);
    }
  }
  assert.deepEqual(regressions, []);
});
