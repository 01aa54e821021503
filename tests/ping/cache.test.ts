import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PingCache } from '../../lib/ping/index.ts';
import type { ProbeOutcome } from '../../lib/ping/probe.ts';

const media = { url: 'https://cdn.example/a.png', type: 'png' };

/** A probe that counts its runs and answers `outcome`. */
function prober(outcome: ProbeOutcome) {
  const probe = async (): Promise<ProbeOutcome> => {
    probe.runs += 1;
    return outcome;
  };
  probe.runs = 0;
  return probe;
}

function clock(): { now: () => number; advance: (ms: number) => void } {
  let time = 0;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

describe('PingCache', () => {
  test('a reachable answer lives ttlMs', async () => {
    const time = clock();
    const cache = new PingCache({ ttlMs: 1000, clock: time.now });
    const probe = prober({ media, lasting: true });
    assert.deepEqual(await cache.through('image a', probe), media);
    time.advance(999);
    await cache.through('image a', probe);
    assert.equal(probe.runs, 1);
    time.advance(1);
    await cache.through('image a', probe);
    assert.equal(probe.runs, 2);
  });

  test('an unreachable answer lives failureTtlMs, shorter', async () => {
    const time = clock();
    const cache = new PingCache({ ttlMs: 1000, failureTtlMs: 100, clock: time.now });
    const probe = prober({ media: null, lasting: true });
    assert.equal(await cache.through('image a', probe), null);
    time.advance(99);
    await cache.through('image a', probe);
    assert.equal(probe.runs, 1);
    time.advance(1);
    await cache.through('image a', probe);
    assert.equal(probe.runs, 2);
  });

  test('an answer that is not lasting (a deadline cut short by the request budget) is not kept', async () => {
    const cache = new PingCache();
    const probe = prober({ media: null, lasting: false });
    await cache.through('image a', probe);
    await cache.through('image a', probe);
    assert.equal(probe.runs, 2);
    assert.equal(cache.size, 0);
  });

  test('a probe that throws is not kept, and its callers see the error', async () => {
    const cache = new PingCache();
    await assert.rejects(cache.through('image a', () => Promise.reject(new Error('bug'))), /bug/);
    assert.equal(cache.size, 0);
  });

  test('concurrent lookups of one key share one probe', async () => {
    const cache = new PingCache();
    let release!: (outcome: ProbeOutcome) => void;
    let runs = 0;
    const probe = (): Promise<ProbeOutcome> => {
      runs += 1;
      return new Promise((resolve) => (release = resolve));
    };
    const waiting = [cache.through('logo a', probe), cache.through('logo a', probe)];
    release({ media, lasting: true });
    assert.deepEqual(await Promise.all(waiting), [media, media]);
    assert.equal(runs, 1);
  });

  test('bounded: the least recently used entry leaves first', async () => {
    const cache = new PingCache({ maxEntries: 2 });
    const probe = prober({ media, lasting: true });
    await cache.through('a', probe);
    await cache.through('b', probe);
    await cache.through('a', probe); // a is now the most recent
    await cache.through('c', probe); // evicts b
    assert.equal(cache.size, 2);
    assert.equal(probe.runs, 3);
    await cache.through('a', probe);
    assert.equal(probe.runs, 3);
    await cache.through('b', probe);
    assert.equal(probe.runs, 4);
  });
});
