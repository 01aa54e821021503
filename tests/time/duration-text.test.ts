import assert from 'node:assert/strict';
import { test } from 'node:test';
import { durationText } from '../../lib/time/duration-text.ts';

test('durationText: largest unit first, zero units left out, seconds to a tenth cut down, under a second in ms', () => {
  const cases: Array<[number, string]> = [
    [0, '0ms'],
    [-5, '0ms'],
    [999.9, '999ms'],
    [1000, '1s'],
    [1099, '1s'],
    [61_550, '1m 1.5s'],
    [3_600_000, '1h'],
    [86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_560, '1d 2h 3m 4.5s'],
    [31 * 86_400_000, '31d'],
  ];
  for (const [ms, text] of cases) assert.equal(durationText(ms), text, String(ms));
});
