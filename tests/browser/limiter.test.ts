/**
 * Admission to the browser: a bounded number of holders, a bounded first-come line, and an answer at once
 * (EBUSY) when a request cannot be served in time: line full, too little budget, or shutting down.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Limiter } from '../../lib/browser/limiter.ts';
import { MIN_RENDER_MS } from '../../lib/time/limits.ts';
import { Budget } from '../../lib/time/budget.ts';
import { codeOf } from './helpers.ts';

const AMPLE = 10_000;

test('at most `size` holders; the next in line gets the slot when one is released', async () => {
  const limiter = new Limiter(2);
  const first = await limiter.acquire(new Budget(AMPLE));
  const second = await limiter.acquire(new Budget(AMPLE));
  const order: string[] = [];
  const third = limiter.acquire(new Budget(AMPLE)).then((release) => (order.push('third'), release));
  const fourth = limiter.acquire(new Budget(AMPLE)).then((release) => (order.push('fourth'), release));
  await delay(20);
  assert.deepEqual(order, []);
  first();
  first();
  const releaseThird = await third;
  await delay(20);
  assert.deepEqual(order, ['third'], 'releasing twice must not free two slots');
  second();
  (await fourth)();
  releaseThird();
  assert.deepEqual(order, ['third', 'fourth']);
});

test('a full line answers EBUSY at once, naming the busy browser, not the timeout', async () => {
  const limiter = new Limiter(1, { maxWaiting: 2 });
  const held = await limiter.acquire(new Budget(AMPLE));
  const waiting = [limiter.acquire(new Budget(AMPLE)), limiter.acquire(new Budget(AMPLE))];
  const started = performance.now();
  await assert.rejects(limiter.acquire(new Budget(AMPLE)), (error: any) => {
    assert.equal(error.code, 'EBUSY');
    assert.equal(error.statusCode, 503);
    assert.match(error.message, /busy: 1 pages are rendering and 2 requests are waiting/);
    assert.doesNotMatch(error.message, /timeout/);
    return true;
  });
  assert.ok(performance.now() - started < 100);
  held();
  (await waiting[0]!)();
  (await waiting[1]!)();
});

test('a budget that cannot cover a render is EBUSY at once, even with free slots', async () => {
  const limiter = new Limiter(2);
  const started = performance.now();
  await assert.rejects(limiter.acquire(new Budget(MIN_RENDER_MS - 200)), (error: any) => {
    assert.equal(error.code, 'EBUSY');
    assert.match(error.message, /needs at least 1500 ms/);
    return true;
  });
  assert.equal(await codeOf(limiter.acquire(new Budget(0))), 'EBUSY');
  assert.ok(performance.now() - started < 100);
});

test('a waiter leaves the line while a render still fits, and is never handed a slot after', async () => {
  const limiter = new Limiter(1);
  const held = await limiter.acquire(new Budget(AMPLE));
  const budget = new Budget(MIN_RENDER_MS + 300);
  const started = performance.now();
  await assert.rejects(limiter.acquire(budget), (error: any) => {
    assert.equal(error.code, 'EBUSY');
    assert.match(error.message, /no page became free within 300 ms/);
    return true;
  });
  const waited = performance.now() - started;
  assert.ok(waited >= 250 && waited < 800, `waited ${waited} ms`);
  assert.ok(budget.remaining() >= MIN_RENDER_MS - 100, 'left with time to spare');
  // The slot goes to the next waiter, not to the one that left.
  const next = limiter.acquire(new Budget(AMPLE));
  held();
  (await next)();
});

test('closing refuses new requests at once, serves those admitted and waiting, then resolves', async () => {
  const limiter = new Limiter(1);
  const held = await limiter.acquire(new Budget(AMPLE));
  const waiting = limiter.acquire(new Budget(AMPLE));
  let closed = false;
  const closing = limiter.close().then(() => (closed = true));
  await assert.rejects(limiter.acquire(new Budget(AMPLE)), (error: any) => {
    assert.equal(error.code, 'EBUSY');
    assert.match(error.message, /shutting down/);
    return true;
  });
  held();
  const release = await waiting;
  await delay(10);
  assert.equal(closed, false, 'still serving the admitted waiter');
  release();
  await closing;
  assert.equal(closed, true);
});
