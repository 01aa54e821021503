import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prettyDuration } from '../../lib/media/pretty.ts';

test("duration_pretty is Microlink's compact form: the largest unit, seconds rounded", () => {
  // Values Microlink itself answered: 28.533333 → "29s", 30.040816 → "30s", 1502 s → "25m".
  assert.equal(prettyDuration(28.533333), '29s');
  assert.equal(prettyDuration(30.040816), '30s');
  assert.equal(prettyDuration(1502), '25m');
  assert.equal(prettyDuration(45), '45s');
  assert.equal(prettyDuration(90.5), '1m');
  assert.equal(prettyDuration(3723), '1h');
  assert.equal(prettyDuration(2 * 86400 + 5), '2d');
  assert.equal(prettyDuration(0.25), '250ms');
});
