import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

const DAY = 86_400_000;

describe('ttl', () => {
  test('accepts every duration form and the min/max aliases', () => {
    assert.equal(parse('ttl=90000').ttl, 90_000);
    assert.equal(parse('ttl=90s').ttl, 90_000);
    assert.equal(parse('ttl=10m').ttl, 600_000);
    assert.equal(parse('ttl=1.5h').ttl, 5_400_000);
    assert.equal(parse('ttl=1d').ttl, DAY);
    assert.equal(parse('ttl=min').ttl, 60_000);
    assert.equal(parse('ttl=MAX').ttl, 31 * DAY);
    assert.equal(parse('ttl=1m').ttl, 60_000);
    assert.equal(parse('ttl=31d').ttl, 31 * DAY);
  });

  test('out of range or garbage is EINVALTTL naming ttl and saying what is accepted', () => {
    for (const value of ['59s', '59999', '32d', '0', 'soon', '-1h', '', '5w', 'constructor', 'toString']) {
      const error = rejects(`ttl=${value}`, 'EINVALTTL', 'ttl');
      assert.match(error.message, /from 1m to 31d/);
    }
  });
});

describe('staleTtl', () => {
  test('is false by default and with false', () => {
    assert.equal(parse('').staleTtl, false);
    assert.equal(parse('staleTtl=false').staleTtl, false);
  });

  test('accepts 0, durations up to ttl, and true as 0', () => {
    assert.equal(parse('staleTtl=0').staleTtl, 0);
    assert.equal(parse('staleTtl=1h').staleTtl, 3_600_000);
    assert.equal(parse('ttl=1h&staleTtl=1h').staleTtl, 3_600_000);
    assert.equal(parse('staleTtl=true').staleTtl, 0);
    assert.equal(parse('stale_ttl').staleTtl, 0);
  });

  test('longer than ttl is EINVALSTTL naming staleTtl', () => {
    const error = rejects('ttl=1h&staleTtl=2h', 'EINVALSTTL', 'staleTtl');
    assert.match(error.message, /no longer than `ttl` \(1h\)/);
    rejects('staleTtl=2d', 'EINVALSTTL', 'staleTtl');
  });

  test('garbage is EINVALSTTL naming staleTtl', () => {
    rejects('staleTtl=later', 'EINVALSTTL', 'staleTtl');
    rejects('stale_ttl=-5', 'EINVALSTTL', 'staleTtl');
  });
});

describe('timeout', () => {
  test('defaults to and is capped at 28s, at least 1s', () => {
    assert.equal(parse('').timeout, 28_000);
    assert.equal(parse('timeout=10s').timeout, 10_000);
    assert.equal(parse('timeout=1000').timeout, 1000);
    assert.equal(parse('timeout=max').timeout, 28_000);
    assert.equal(parse('timeout=min').timeout, 1000);
  });

  test('out of range or garbage is EINVALQUERY naming timeout', () => {
    for (const value of ['29s', '999', '1m', 'never', '0.5s']) {
      const error = rejects(`timeout=${value}`, 'EINVALQUERY', 'timeout');
      assert.match(error.message, /from 1s to 28s/);
    }
  });
});

describe('waitForTimeout', () => {
  test('is a duration up to timeout', () => {
    assert.equal(parse('').waitForTimeout, undefined);
    assert.equal(parse('waitForTimeout=1.5s').waitForTimeout, 1500);
    assert.equal(parse('waitForTimeout=0').waitForTimeout, 0);
    assert.equal(parse('timeout=5s&waitForTimeout=5s').waitForTimeout, 5000);
  });

  test('longer than timeout or garbage is EINVALQUERY naming waitForTimeout', () => {
    rejects('timeout=5s&waitForTimeout=6s', 'EINVALQUERY', 'waitForTimeout');
    rejects('waitForTimeout=forever', 'EINVALQUERY', 'waitForTimeout');
  });
});
