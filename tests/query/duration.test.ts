import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatDuration, parseDuration } from '../../lib/query/duration.ts';

describe('parseDuration', () => {
  test('reads whole milliseconds and every unit', () => {
    assert.equal(parseDuration('90000'), 90_000);
    assert.equal(parseDuration('0'), 0);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('90s'), 90_000);
    assert.equal(parseDuration('10m'), 600_000);
    assert.equal(parseDuration('1h'), 3_600_000);
    assert.equal(parseDuration('1d'), 86_400_000);
  });

  test('accepts decimals with a unit', () => {
    assert.equal(parseDuration('1.5h'), 5_400_000);
    assert.equal(parseDuration('0.5s'), 500);
    assert.equal(parseDuration('2.25d'), 194_400_000);
  });

  test("reads the ms package's spellings, as Microlink does", () => {
    assert.equal(parseDuration('1day'), 86_400_000);
    assert.equal(parseDuration('90secs'), 90_000);
    assert.equal(parseDuration('10 secs'), 10_000);
    assert.equal(parseDuration('5 minutes'), 300_000);
    assert.equal(parseDuration('2hrs'), 7_200_000);
    assert.equal(parseDuration('1w'), 604_800_000);
    assert.equal(parseDuration('10 m'), 600_000);
  });

  test('refuses garbage', () => {
    for (const text of ['', 'abc', '-1', '-1d', '1.5', '1e3', '0x10', '1h30m', 's', '9'.repeat(30), `1${' '.repeat(200)}s`]) {
      assert.equal(parseDuration(text), undefined, text);
    }
  });
});

describe('formatDuration', () => {
  test('spells a duration with its largest exact unit', () => {
    assert.equal(formatDuration(60_000), '1m');
    assert.equal(formatDuration(90_000), '90s');
    assert.equal(formatDuration(31 * 86_400_000), '31d');
    assert.equal(formatDuration(1500), '1500ms');
    assert.equal(formatDuration(0), '0ms');
  });
});
