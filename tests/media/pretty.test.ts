import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prettyBytes } from '../../lib/media/pretty.ts';

test('sizes are 1000-based with a unit, as Microlink prints them', () => {
  assert.equal(prettyBytes(0), '0 B');
  assert.equal(prettyBytes(315), '315 B');
  assert.equal(prettyBytes(999), '999 B');
  assert.equal(prettyBytes(1000), '1 kB');
  assert.equal(prettyBytes(4120), '4.12 kB');
  assert.equal(prettyBytes(4125), '4.13 kB');
  assert.equal(prettyBytes(1_500_000), '1.5 MB');
  assert.equal(prettyBytes(2_000_000_000), '2 GB');
});
