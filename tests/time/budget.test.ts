/** The one clock of a request: deadlines, sub-budgets, races, and abort reaching every part. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Budget } from '../../lib/time/budget.ts';

const never = () => new Promise<never>(() => undefined);

describe('Budget', () => {
  test('until() ends at an absolute time; remaining() never goes negative', () => {
    let now = 1_000;
    const budget = Budget.until(1_500, () => now);
    assert.equal(budget.remaining(), 500);
    now = 2_000;
    assert.equal(budget.remaining(), 0);
    assert.equal(budget.expired, true);
  });

  test('a slice ends by the parent deadline less its reserve, and no later than its own length', () => {
    const now = 0;
    const budget = Budget.until(10_000, () => now);
    assert.equal(budget.slice(Infinity, 250).remaining(), 9_750);
    assert.equal(budget.slice(3_000).remaining(), 3_000);
    assert.equal(budget.slice(Infinity, 20_000).remaining(), 0);
  });

  test('race() answers the work when it is first, and clears its timer', async () => {
    const budget = new Budget(5_000);
    assert.equal(await budget.race(Promise.resolve('done'), () => 'late'), 'done');
  });

  test('race() gives the fallback, or throws the error, once the budget runs out', async () => {
    const started = Date.now();
    assert.equal(await new Budget(30).race(never(), () => 'fallback'), 'fallback');
    assert.ok(Date.now() - started < 1_000);
    await assert.rejects(
      new Budget(30).race(never(), () => {
        throw new Error('out of time');
      }),
      /out of time/,
    );
  });

  test('abort() ends the budget and every slice of it: races give up and signals fire', async () => {
    const budget = new Budget(60_000);
    const slice = budget.slice(30_000);
    const signal = slice.signal();
    const racing = slice.race(never(), () => 'gave up');
    await delay(5);
    budget.abort();
    assert.equal(await racing, 'gave up');
    assert.equal(signal.aborted, true);
    assert.equal(slice.remaining(), 0);
    assert.equal(await slice.race(Promise.resolve('work'), () => 'gave up'), 'gave up');
  });

  test('signal() fires when the time runs out', async () => {
    const signal = new Budget(20).signal();
    await delay(80);
    assert.equal(signal.aborted, true);
  });

  test('within() tells the work to stop when the time runs out, or at once when the budget is aborted', async () => {
    const stopped = (signal: AbortSignal) => new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve((signal.reason as Error).name)));
    const started = Date.now();
    assert.equal(await new Budget(30).within(stopped), 'TimeoutError');
    assert.ok(Date.now() - started >= 25, 'not before the deadline');
    const parent = new Budget(10_000);
    const waiting = parent.slice(5_000).within(stopped);
    parent.abort();
    assert.equal(await waiting, 'TimeoutError');
    assert.equal(await new Budget(10_000).within(async (signal) => signal.aborted), false, 'work that ends first is not told');
  });

  test('within() holds its timer while the work runs: a wait nothing else keeps alive still ends', async () => {
    const { execFileSync } = await import('node:child_process');
    const script = `import { Budget } from ${JSON.stringify(new URL('../../lib/time/budget.ts', import.meta.url).href)};
      const r = await new Budget(50).within((s) => new Promise((resolve) => s.addEventListener('abort', () => resolve('ended'))));
      console.log(r);`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(out.trim(), 'ended');
  });

  test('cap() bounds best-effort work with a fallback', async () => {
    assert.equal(await Budget.cap(never(), 20, false), false);
    assert.equal(await Budget.cap(Promise.resolve(true), 1_000, false), true);
  });
});
