/**
 * The worker pool's unhappy paths (issue 24 item 5), with the product's own worker and jobs: a task past its budget
 * is stopped and its worker replaced; a worker out of memory fails its own task only; a burst queues boundedly and
 * sheds with EBUSY; closing ends every worker. The heavy input is real: technology fingerprints over markup written
 * against them (seconds of CPU), and a DOM too large for a small heap.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ordinaryPage } from '../../bench/lib/hostile.ts';
import { GlanceError } from '../../lib/errors.ts';
import { Budget } from '../../lib/time/budget.ts';
import { WorkPool } from '../../lib/work/pool.ts';

/**
 * Seconds of CPU for the technology job: its fingerprints' bounded quantifiers over unclosed `<link href="`, in lines
 * as long as it reads (2 000 characters) and as many as fill its slice.
 */
const costly = {
  url: 'https://site.test/',
  html: Array.from({ length: 200 }, () => '<link href="'.repeat(166)).join('\n'),
  headers: {},
  cookies: {},
  scriptSrcs: [],
  meta: new Map<string, string[]>(),
};
const cheap = { ...costly, html: '<html><head></head></html>', meta: new Map([['generator', ['WordPress 6.4']]]) };
const rulesOf = (html: string) => ({
  rules: { title: [{ selector: ['title'], all: false, attr: ['text'], rules: undefined, type: ['string' as const], evaluate: undefined }] },
  html: [new TextEncoder().encode(html)],
  body: undefined,
  url: 'https://site.test/',
  evaluated: undefined,
});

const code = (error: unknown) => (error instanceof GlanceError ? error.code : String(error));

describe('the worker pool', () => {
  test('a task past its budget answers ETIMEOUT at its deadline, its worker is ended, and the next task runs on a new one', async () => {
    const pool = new WorkPool({ size: 1 });
    try {
      // Warm: the worker and the technology rules are loaded, so only the task's own work is timed.
      assert.equal((await pool.run('technologies', cheap, { budget: new Budget(30_000) }))[0]?.name, 'WordPress');
      const started = performance.now();
      const stopped = await pool.run('technologies', costly, { budget: new Budget(300) }).catch(code);
      const took = performance.now() - started;
      assert.equal(stopped, 'ETIMEOUT');
      assert.ok(took < 1000, `stopped after ${Math.round(took)} ms`);
      // The worker that ran it is gone; the pool starts another for the next task, which is answered.
      const again = await pool.run('technologies', cheap, { budget: new Budget(30_000) });
      assert.equal(again[0]?.name, 'WordPress');
      assert.equal(pool.threads, 1);
    } finally {
      await pool.close();
    }
  });

  test('a task whose answer is no longer awaited (its budget aborted) is stopped at once', async () => {
    const pool = new WorkPool({ size: 1 });
    try {
      await pool.run('technologies', cheap, { budget: new Budget(30_000) });
      const budget = new Budget(30_000);
      const running = pool.run('technologies', costly, { budget }).catch(code);
      setTimeout(() => budget.abort(), 200);
      const started = performance.now();
      assert.equal(await running, 'ETIMEOUT');
      assert.ok(performance.now() - started < 1000);
    } finally {
      await pool.close();
    }
  });

  test('a worker out of its heap fails its own task only, beside one that succeeds, and is replaced', async () => {
    const pool = new WorkPool({ size: 2, resourceLimits: { maxOldGenerationSizeMb: 24 } });
    try {
      const big = ordinaryPage(8 * 1024 * 1024);
      const [failed, fine] = await Promise.allSettled([
        pool.run('rules', rulesOf(big), { budget: new Budget(60_000) }),
        pool.run('rules', rulesOf('<title>small</title>'), { budget: new Budget(60_000) }),
      ]);
      assert.equal(fine.status, 'fulfilled');
      assert.deepEqual(fine.value, { title: 'small' });
      assert.equal(failed.status, 'rejected');
      // Not a GlanceError: the app answers EFATAL and logs it with its cause.
      assert.ok(!(failed.reason instanceof GlanceError));
      assert.match(String((failed.reason as Error).cause ?? failed.reason), /memory/i);
      assert.deepEqual(await pool.run('rules', rulesOf('<title>after</title>'), { budget: new Budget(60_000) }), { title: 'after' });
    } finally {
      await pool.close();
    }
  });

  test('a burst queues up to its bound and is shed with EBUSY beyond it; a wait that outlives its budget is EBUSY too', async () => {
    const pool = new WorkPool({ size: 1, maxWaiting: 1 });
    try {
      await pool.run('technologies', cheap, { budget: new Budget(30_000) });
      const running = pool.run('technologies', costly, { budget: new Budget(3000) }).catch(code);
      const waiting = pool.run('technologies', cheap, { budget: new Budget(500) }).catch(code);
      const started = performance.now();
      const shed = await pool.run('technologies', cheap, { budget: new Budget(30_000) }).catch(code);
      assert.equal(shed, 'EBUSY');
      assert.ok(performance.now() - started < 100, 'shed at once, not after a wait');
      // The one waiting gave up when its own budget ended, still waiting for the worker.
      assert.equal(await waiting, 'EBUSY');
      assert.equal(await running, 'ETIMEOUT');
    } finally {
      await pool.close();
    }
  });

  test('closing takes no new task, lets the running one finish, then ends every worker', async () => {
    const pool = new WorkPool({ size: 2 });
    await pool.prepare(['rules']);
    assert.equal(pool.threads, 2);
    const running = pool.run('rules', rulesOf('<title>in flight</title>'), { budget: new Budget(30_000) });
    const closed = pool.close();
    assert.equal(await pool.run('rules', rulesOf('<title>late</title>'), { budget: new Budget(30_000) }).catch(code), 'EBUSY');
    assert.deepEqual(await running, { title: 'in flight' });
    await closed;
    assert.equal(pool.threads, 0);
  });

  test('a prepared pool replaces an ended worker at once, before any task needs it; an unprepared one on first need', async () => {
    const prepared = new WorkPool({ size: 1 });
    const lazy = new WorkPool({ size: 1 });
    try {
      await prepared.prepare(['technologies']);
      assert.equal(prepared.threads, 1);
      assert.equal(await prepared.run('technologies', costly, { budget: new Budget(200) }).catch(code), 'ETIMEOUT');
      assert.equal(prepared.threads, 1, 'the replacement is starting, loading the rules');
      assert.equal(lazy.threads, 0);
      await lazy.run('technologies', cheap, { budget: new Budget(30_000) });
      assert.equal(await lazy.run('technologies', costly, { budget: new Budget(200) }).catch(code), 'ETIMEOUT');
      assert.equal(lazy.threads, 0);
      assert.equal((await prepared.run('technologies', cheap, { budget: new Budget(30_000) }))[0]?.name, 'WordPress');
    } finally {
      await Promise.all([prepared.close(), lazy.close()]);
    }
  });
});
