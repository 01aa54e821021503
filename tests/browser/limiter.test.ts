/** The page limiter: a bounded number of holders, a first-come queue, and a queue wait bounded by the budget. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Limiter } from '../../lib/browser/limiter.ts';
import { Budget } from '../../lib/time/budget.ts';

test('at most `size` holders; the next in line gets the slot when one is released', async () => {
  const limiter = new Limiter(2);
  const first = await limiter.acquire(new Budget(1000));
  const second = await limiter.acquire(new Budget(1000));
  const order: string[] = [];
  const third = limiter.acquire(new Budget(1000)).then((release) => (order.push('third'), release));
  const fourth = limiter.acquire(new Budget(1000)).then((release) => (order.push('fourth'), release));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(order, []);
  first();
  first();
  const releaseThird = await third;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(order, ['third'], 'releasing twice must not free two slots');
  second();
  (await fourth)();
  releaseThird();
  assert.deepEqual(order, ['third', 'fourth']);
});

test('a queued request whose budget runs out leaves the queue with EBRWSRTIMEOUT', async () => {
  const limiter = new Limiter(1);
  const held = await limiter.acquire(new Budget(1000));
  await assert.rejects(limiter.acquire(new Budget(50)), { code: 'EBRWSRTIMEOUT' });
  const next = limiter.acquire(new Budget(1000));
  held();
  const release = await next;
  release();
  assert.ok(true);
});
