/** The local rate limit's counting (lib/http/rate-limit.ts) and who it counts (lib/http/client-address.ts), on a clock the tests move. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientAddress } from '../../lib/http/client-address.ts';
import { clientOf, rateHeaders, RateLimiter } from '../../lib/http/rate-limit.ts';

const MINUTE = 60_000;
/** A window's start: windows are aligned on the clock. */
const START = 1_700_000_040_000;

function limiter(limit: number, maxClients?: number) {
  const clock = { now: START };
  return { clock, limiter: new RateLimiter({ limit, windowMs: MINUTE }, { now: () => clock.now, maxClients }) };
}

describe('RateLimiter', () => {
  test('N requests pass, the next is refused with what is left of the window', () => {
    const { clock, limiter: rate } = limiter(3);
    clock.now = START + 15_500;
    const verdicts = [1, 2, 3, 4].map(() => rate.take('a'));
    assert.deepEqual(verdicts.map((verdict) => [verdict.allowed, verdict.remaining]), [[true, 2], [true, 1], [true, 0], [false, 0]]);
    const last = verdicts[3]!;
    assert.equal(last.reset, (START + MINUTE) / 1000, 'the window\'s end in UTC epoch seconds');
    assert.equal(last.retryAfter, 45, 'the 44.5 s left, rounded up');
    assert.deepEqual(rateHeaders(last), { 'x-rate-limit-limit': '3', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(last.reset), 'retry-after': '45' });
    assert.equal(rateHeaders(verdicts[0]!)['retry-after'], undefined, 'retry-after on a refusal only');
  });

  test('another client has its own count', () => {
    const { limiter: rate } = limiter(1);
    assert.equal(rate.take('a').allowed, true);
    assert.equal(rate.take('a').allowed, false);
    assert.equal(rate.take('b').allowed, true);
  });

  test('a new window starts every count again, at the window boundary exactly', () => {
    const { clock, limiter: rate } = limiter(1);
    rate.take('a');
    clock.now = START + MINUTE - 1;
    assert.equal(rate.take('a').allowed, false);
    clock.now = START + MINUTE;
    const fresh = rate.take('a');
    assert.deepEqual([fresh.allowed, fresh.remaining, fresh.reset], [true, 0, (START + 2 * MINUTE) / 1000]);
  });

  test('the table is bounded: past its size the least recently seen client is forgotten, not an active one', () => {
    const { limiter: rate } = limiter(1, 2);
    rate.take('a');
    rate.take('b');
    assert.equal(rate.take('a').allowed, false, 'a is counted, and now the most recent');
    rate.take('c');
    assert.equal(rate.take('a').allowed, false, 'a, seen since b, is still counted');
    assert.equal(rate.take('b').allowed, true, 'b was forgotten to make room for c');
  });
});

describe('who is counted', () => {
  test('a valid key counts as itself, wherever it comes from; anything else by its address', () => {
    assert.equal(clientOf('k1', '192.0.2.1'), clientOf('k1', '198.51.100.7'));
    assert.notEqual(clientOf('k1', '192.0.2.1'), clientOf('k2', '192.0.2.1'));
    assert.notEqual(clientOf(undefined, '192.0.2.1'), clientOf(undefined, '192.0.2.2'));
  });

  test('the socket\'s peer, an IPv4-mapped peer as IPv4, IPv6 by its /64', () => {
    assert.equal(clientAddress('192.0.2.1', undefined, 0), '192.0.2.1');
    assert.equal(clientAddress('::ffff:192.0.2.1', undefined, 0), '192.0.2.1');
    assert.equal(clientAddress('2001:db8:1:2:aaaa::1', undefined, 0), clientAddress('2001:db8:1:2:bbbb::9', undefined, 0));
    assert.notEqual(clientAddress('2001:db8:1:2::1', undefined, 0), clientAddress('2001:db8:1:3::1', undefined, 0));
    assert.equal(clientAddress(undefined, undefined, 0), 'unknown');
  });

  test('X-Forwarded-For is ignored unless proxies are trusted, then read that many hops back', () => {
    const forged = '203.0.113.9, 198.51.100.7';
    assert.equal(clientAddress('192.0.2.1', forged, 0), '192.0.2.1', 'by default a caller cannot choose its address');
    assert.equal(clientAddress('10.0.0.2', forged, 1), '198.51.100.7', 'one proxy: the address it appended');
    assert.equal(clientAddress('10.0.0.2', forged, 2), '203.0.113.9');
    assert.equal(clientAddress('10.0.0.2', forged, 5), '203.0.113.9', 'more hops than entries: the leftmost');
    assert.equal(clientAddress('10.0.0.2', undefined, 1), '10.0.0.2', 'no header: the peer');
    assert.equal(clientAddress('10.0.0.2', 'x'.repeat(5000), 1), 'unknown', 'what is not an address is one client, not a new entry each');
  });
});
