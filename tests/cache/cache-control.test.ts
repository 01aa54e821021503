import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheHeaders, type CacheOutcome } from '../../lib/cache/index.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const outcome = (overrides: Partial<CacheOutcome>): CacheOutcome => ({
  answer: { statusCode: 200, headers: {}, body: '{}' },
  status: 'MISS',
  ttl: DAY,
  age: 0,
  staleTtl: false,
  ...overrides,
});

describe('cacheHeaders', () => {
  test('a fresh answer: the edge may keep it for its whole ttl, browsers revalidate', () => {
    assert.deepEqual(cacheHeaders(outcome({})), {
      'x-cache-status': 'MISS',
      'x-cache-ttl': String(DAY),
      'x-cache-expired-at': '1d',
      'cache-control': 'public, max-age=0, s-maxage=86400',
    });
  });

  test('x-cache-expired-at: what is left of the lifetime, shorter as the stored answer ages', () => {
    const left = (age: number) => cacheHeaders(outcome({ status: 'HIT', ttl: HOUR, age }))['x-cache-expired-at'];
    assert.deepEqual([left(0), left(90_000), left(HOUR - 1500), left(HOUR - 250)], ['1h', '58m 30s', '1.5s', '250ms']);
    const failure = cacheHeaders(outcome({ status: 'HIT', ttl: MINUTE, age: 15_000, answer: { statusCode: 502, headers: {}, body: '' } }));
    assert.equal(failure['x-cache-expired-at'], '45s', 'a kept target failure says when it is forgotten');
  });

  test('a hit: the edge keeps it only for what is left of its ttl', () => {
    const headers = cacheHeaders(outcome({ status: 'HIT', age: HOUR + 500 }));
    assert.equal(headers['x-cache-status'], 'HIT');
    assert.equal(headers['x-cache-ttl'], String(DAY), 'the effective lifetime, as Microlink echoes it');
    assert.equal(headers['cache-control'], `public, max-age=0, s-maxage=${23 * 3600 - 1}`);
  });

  test('with staleTtl: fresh until staleTtl, then stale-while-revalidate until ttl, never beyond it', () => {
    const fresh = cacheHeaders(outcome({ ttl: HOUR, staleTtl: 10 * MINUTE }));
    assert.equal(fresh['cache-control'], 'public, max-age=0, s-maxage=600, stale-while-revalidate=3000');
    const stale = cacheHeaders(outcome({ status: 'STALE', ttl: HOUR, staleTtl: 10 * MINUTE, age: 20 * MINUTE }));
    assert.equal(stale['x-cache-status'], 'STALE');
    assert.equal(stale['cache-control'], 'public, max-age=0, s-maxage=0, stale-while-revalidate=2400');
    const always = cacheHeaders(outcome({ ttl: HOUR, staleTtl: 0 }));
    assert.equal(always['cache-control'], 'public, max-age=0, s-maxage=0, stale-while-revalidate=3600');
  });

  test('an answer that must not be reused (4xx, an unstored failure) is no-store, without x-cache-ttl', () => {
    assert.deepEqual(cacheHeaders(outcome({ status: 'BYPASS', ttl: 0, answer: { statusCode: 400, headers: {}, body: '' } })), {
      'x-cache-status': 'BYPASS',
      'cache-control': 'no-store',
    });
  });

  test('a failure the result cache keeps (a target failure) is still never kept at the edge', () => {
    for (const statusCode of [502, 403, 400, 413]) {
      const headers = cacheHeaders(outcome({ status: 'HIT', ttl: MINUTE, age: 15_000, answer: { statusCode, headers: {}, body: '' } }));
      assert.equal(headers['cache-control'], 'no-store', String(statusCode));
      assert.equal(headers['x-cache-ttl'], String(MINUTE), 'the result cache\'s own lifetime, as Microlink echoes it');
    }
  });

  test('an answer depending on request headers is kept out of shared caches', () => {
    const headers = cacheHeaders(outcome({ staleTtl: 0 }), { shared: false });
    assert.equal(headers['cache-control'], 'private, no-store');
    assert.equal(headers['x-cache-status'], 'MISS');
  });
});
