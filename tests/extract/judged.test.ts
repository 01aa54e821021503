/**
 * The judged set (tests/fixtures/judged): real pages with the values a reader gives them. Every judgement must carry
 * its reason, and Glance's agreement per field must not fall below the committed baseline (judged-baseline.json;
 * `UPDATE_BASELINE=1` rewrites it when a change wins pages).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { extractMetadata } from '../../lib/extract/index.ts';
import { SCORED_FIELDS, formatTable, summarise, type ScoredField } from '../helpers/corpus.ts';
import { loadJudged, readJudged, scoreJudged, scoreJudgedField } from '../helpers/judged.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const BASELINE = new URL('./judged-baseline.json', import.meta.url);
const PAGE = 'https://site.example/post';

describe('the judged set', () => {
  test('every page says its language and kind, and every judged value says why', () => {
    const entries = readJudged();
    assert.ok(entries.size >= 150, `expected at least 150 judged pages, found ${entries.size}`);
    const problems: string[] = [];
    for (const [key, entry] of entries) {
      if (!/^[a-z]{2}$/.test(entry.language)) problems.push(`${key}: language ${entry.language}`);
      if (!entry.type) problems.push(`${key}: no type`);
      if (Object.keys(entry.fields).length === 0) problems.push(`${key}: nothing judged`);
      for (const [field, judged] of Object.entries(entry.fields)) {
        if (!(SCORED_FIELDS as readonly string[]).includes(field)) problems.push(`${key}: unknown field ${field}`);
        if (typeof judged.reason !== 'string' || judged.reason.trim().length < 5) problems.push(`${key}.${field}: no reason`);
        for (const value of [judged.value, ...(judged.oneOf ?? [])]) {
          if (value !== null && (typeof value !== 'string' || value.trim() === '')) problems.push(`${key}.${field}: empty value`);
          if (field === 'date' && value !== null && Number.isNaN(Date.parse(value))) problems.push(`${key}.date: ${value} is not ISO 8601`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test('Glance agrees per field at least as often as the committed baseline', () => {
    const pages = loadJudged();
    const results = pages.map((page) => scoreJudged(page, extractMetadata({ html: page.html, url: page.url }).values));
    const columns = {
      all: summarise(results),
      en: summarise(results.filter((_, i) => pages[i]!.language === 'en')),
      'not en': summarise(results.filter((_, i) => pages[i]!.language !== 'en')),
    };
    const judgedFields = SCORED_FIELDS.filter((field) => columns.all.fields[field].scored > 0);
    console.log(formatTable(columns, judgedFields));

    const reached: Record<string, number> = {};
    for (const field of judgedFields) reached[field] = Math.floor(columns.all.fields[field].ratio * 1000) / 1000;
    reached['overall'] = Math.floor(columns.all.overall.ratio * 1000) / 1000;
    if (process.env['UPDATE_BASELINE']) writeFileSync(BASELINE, `${JSON.stringify(reached, null, 2)}\n`);

    const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as Record<string, number>;
    const regressions = Object.entries(baseline)
      .filter(([field, floor]) => (reached[field] ?? -1) < floor)
      .map(([field, floor]) => `${field}: ${reached[field]} < ${floor}`);
    assert.deepEqual(regressions, []);
  });
});

describe('scoreJudgedField', () => {
  const judged = (value: string | null, ...oneOf: (string | null)[]) => ({ value, oneOf, reason: 'test' });
  const score = (field: ScoredField, actual: string | null, value: ReturnType<typeof judged>) =>
    scoreJudgedField(field, actual, value, PAGE);

  test('any of the judged values agrees, null among them', () => {
    assert.equal(score('title', 'Headline', judged('Headline | Site', 'Headline')), true);
    assert.equal(score('author', null, judged('Desk', null)), true);
    assert.equal(score('author', 'Someone', judged(null)), false);
  });

  test('a judged day agrees with any time on that day as the answer writes it', () => {
    assert.equal(score('date', '2024-02-03T20:38:00.000-05:00', judged('2024-02-03')), true);
    assert.equal(score('date', '2024-02-03T00:00:00.000Z', judged('2024-02-03')), true);
    assert.equal(score('date', 'Feb 3, 2024', judged('2024-02-03')), true);
    assert.equal(score('date', '2024-02-04T01:38:00.000Z', judged('2024-02-03')), false);
    assert.equal(score('date', '2024-01-01T00:00:00.000Z', judged('2024-02-03')), false);
  });

  test('a judged time agrees with the same instant to the second', () => {
    assert.equal(score('date', '2020-06-11T17:50:52Z', judged('2020-06-11T17:50:52.786Z')), true);
    assert.equal(score('date', '2020-06-11T13:50:52.000-04:00', judged('2020-06-11T17:50:52Z')), true);
    assert.equal(score('date', '2020-06-11T12:00:00.000Z', judged('2020-06-11T17:50:52Z')), false);
    assert.equal(score('date', '2020-06-11', judged('2020-06-11T17:50:52Z')), false);
  });
});
