/** The one semaphore: surplus callers wait by default (ping), a bounded line refuses at once, an abort leaves it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { QueueFullError, Semaphore } from '../../lib/time/semaphore.ts';

test('by default every surplus task waits its turn and all run, never more than `size` at once', async () => {
  const slots = new Semaphore(2);
  let running = 0;
  let most = 0;
  const done = await Promise.all(
    Array.from({ length: 10 }, (_, n) =>
      slots.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await delay(5);
        running -= 1;
        return n;
      }),
    ),
  );
  assert.deepEqual(done, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(most, 2);
  assert.equal(slots.active, 0);
});

test('`maxWaiting` refuses the next caller at once', async () => {
  const slots = new Semaphore(1, { maxWaiting: 1 });
  const held = await slots.acquire();
  const waiting = slots.acquire();
  await assert.rejects(slots.acquire(), QueueFullError);
  held();
  (await waiting)();
  await slots.idle();
});

test('an aborted waiter leaves the line with the reason and is never handed the slot', async () => {
  const slots = new Semaphore(1);
  const held = await slots.acquire();
  const controller = new AbortController();
  const gone = slots.acquire(controller.signal);
  const next = slots.acquire();
  controller.abort(new Error('gave up'));
  await assert.rejects(gone, /gave up/);
  assert.equal(slots.waiting, 1);
  held();
  (await next)();
  assert.equal(slots.active, 0);
});
