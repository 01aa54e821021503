import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createLocalRefresher,
  ResultCache,
  RETRY_WINDOW_MS,
  TARGET_FAILURE_TTL_MS,
  type CacheEntry,
  type CacheErrorContext,
  type CachePolicy,
  type CacheStore,
  type Produced,
  type RefreshJob,
} from '../../lib/cache/index.ts';
import { ERRORS, type ErrorCode } from '../../lib/errors.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const KEY = 'a'.repeat(64);
const REQUEST = { rawQueryString: 'url=https://example.com', headers: {} };

/** An in-memory store that, like the real ones, hands out copies, and can be made to fail. */
function memoryStore() {
  const entries = new Map<string, CacheEntry>();
  const calls = { get: 0, set: 0 };
  let failing = false;
  const store: CacheStore = {
    async get(key) {
      calls.get++;
      if (failing) throw new Error('store unreachable');
      const entry = entries.get(key);
      return entry && structuredClone(entry);
    },
    async set(key, entry) {
      calls.set++;
      if (failing) throw new Error('store unreachable');
      entries.set(key, structuredClone(entry));
    },
  };
  return { store, entries, calls, fail: (value: boolean) => void (failing = value) };
}

const answerOf = (statusCode: number, body: string): Produced => ({
  answer: { statusCode, headers: { 'content-type': 'application/json; charset=utf-8' }, body },
});

/** A failed answer as the app produces it: the code's HTTP status, and the code beside it. */
const failureOf = (error: ErrorCode, body = `"${error}"`): Produced => ({ ...answerOf(ERRORS[error], body), error });

/** A produce function counting its calls; each call answers the next version of the page (or fails with `error`). */
function producer(error?: ErrorCode) {
  let calls = 0;
  const produce = async () => {
    const body = JSON.stringify({ version: ++calls });
    return error ? failureOf(error, body) : answerOf(200, body);
  };
  return { produce, calls: () => calls };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function setup() {
  let time = 1_700_000_000_000;
  const memory = memoryStore();
  const refresher = createLocalRefresher();
  const errors: Array<{ error: unknown; context: CacheErrorContext }> = [];
  const cache = new ResultCache(memory.store, {
    now: () => time,
    refresh: refresher.refresh,
    onError: (error, context) => void errors.push({ error, context }),
  });
  return { cache, memory, refresher, errors, advance: (ms: number) => void (time += ms) };
}

const policy = (overrides: Partial<CachePolicy> = {}): CachePolicy => ({
  ttl: DAY,
  staleTtl: false,
  force: false,
  deadline: Infinity,
  ...overrides,
});

describe('ResultCache', () => {
  test('a miss produces and stores; the next request is a hit with the identical answer', async () => {
    const { cache, memory, advance } = setup();
    const { produce, calls } = producer();
    const first = await cache.answer(KEY, policy(), produce, REQUEST);
    assert.equal(first.status, 'MISS');
    assert.equal(first.ttl, DAY);
    assert.equal(first.age, 0);
    assert.equal(memory.entries.size, 1);
    advance(HOUR);
    const second = await cache.answer(KEY, policy(), produce, REQUEST);
    assert.equal(second.status, 'HIT');
    assert.deepEqual(second.answer, first.answer);
    assert.equal(second.age, HOUR);
    assert.equal(calls(), 1);
  });

  test('force regenerates and stores, answering BYPASS without reading', async () => {
    const { cache, memory, advance } = setup();
    const { produce, calls } = producer();
    await cache.answer(KEY, policy(), produce, REQUEST);
    advance(MINUTE);
    const reads = memory.calls.get;
    const forced = await cache.answer(KEY, policy({ force: true }), produce, REQUEST);
    assert.equal(forced.status, 'BYPASS');
    assert.equal(forced.answer.body, '{"version":2}');
    assert.equal(memory.calls.get, reads, 'force does not read the store');
    const after = await cache.answer(KEY, policy(), produce, REQUEST);
    assert.equal(after.status, 'HIT');
    assert.equal(after.answer.body, '{"version":2}', 'the stored entry was replaced');
    assert.equal(after.age, 0);
    assert.equal(calls(), 2);
  });

  test('younger than staleTtl is a plain hit', async () => {
    const { cache, advance } = setup();
    const { produce, calls } = producer();
    await cache.answer(KEY, policy({ ttl: HOUR, staleTtl: 10 * MINUTE }), produce, REQUEST);
    advance(10 * MINUTE - 1);
    const outcome = await cache.answer(KEY, policy({ ttl: HOUR, staleTtl: 10 * MINUTE }), produce, REQUEST);
    assert.equal(outcome.status, 'HIT');
    assert.equal(calls(), 1);
  });

  test('past staleTtl: five concurrent requests get the stale copy at once and one refresh runs', async () => {
    const { cache, refresher, advance } = setup();
    const stalePolicy = policy({ ttl: HOUR, staleTtl: 10 * MINUTE });
    await cache.answer(KEY, stalePolicy, async () => answerOf(200, '"old"'), REQUEST);
    advance(11 * MINUTE);

    const gate = deferred<Produced>();
    let refreshes = 0;
    const slowProduce = () => {
      refreshes++;
      return gate.promise;
    };
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => cache.answer(KEY, stalePolicy, slowProduce, REQUEST)));
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'STALE');
      assert.equal(outcome.answer.body, '"old"');
      assert.equal(outcome.age, 11 * MINUTE);
    }
    // The answers above were given while the refresh is still waiting on the gate.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(refreshes, 1);

    gate.resolve(answerOf(200, '"new"'));
    await refresher.idle();
    assert.equal(refreshes, 1, 'still one refresh after all settled');
    const next = await cache.answer(KEY, stalePolicy, slowProduce, REQUEST);
    assert.equal(next.status, 'HIT');
    assert.equal(next.answer.body, '"new"');
    assert.equal(next.age, 0);
  });

  test('staleTtl 0 serves the cached copy and refreshes on every request', async () => {
    const { cache, refresher } = setup();
    const { produce, calls } = producer();
    await cache.answer(KEY, policy({ staleTtl: 0 }), produce, REQUEST);
    const outcome = await cache.answer(KEY, policy({ staleTtl: 0 }), produce, REQUEST);
    assert.equal(outcome.status, 'STALE');
    assert.equal(outcome.answer.body, '{"version":1}');
    await refresher.idle();
    assert.equal(calls(), 2);
    const again = await cache.answer(KEY, policy({ staleTtl: 0 }), produce, REQUEST);
    assert.equal(again.status, 'STALE');
    assert.equal(again.answer.body, '{"version":2}');
  });

  test('past ttl the entry is regenerated as a miss', async () => {
    const { cache, advance } = setup();
    const { produce, calls } = producer();
    await cache.answer(KEY, policy({ ttl: HOUR, staleTtl: 0 }), produce, REQUEST);
    advance(HOUR);
    const outcome = await cache.answer(KEY, policy({ ttl: HOUR, staleTtl: 0 }), produce, REQUEST);
    assert.equal(outcome.status, 'MISS');
    assert.equal(outcome.answer.body, '{"version":2}');
    assert.equal(calls(), 2);
  });

  test('a request asking for a shorter ttl than the entry has aged regenerates', async () => {
    const { cache, advance } = setup();
    const { produce, calls } = producer();
    await cache.answer(KEY, policy({ ttl: DAY }), produce, REQUEST);
    advance(5 * MINUTE);
    assert.equal((await cache.answer(KEY, policy({ ttl: MINUTE }), produce, REQUEST)).status, 'MISS');
    assert.equal(calls(), 2);
  });

  test('caller errors, timeouts and our own faults are never stored, whatever their status', async () => {
    for (const code of ['EINVALEMBED', 'ENOTFOUNDELEMENT', 'ETIMEOUT', 'EBRWSRTIMEOUT', 'EFATAL'] as const) {
      const { cache, memory } = setup();
      const { produce, calls } = producer(code);
      const first = await cache.answer(KEY, policy(), produce, REQUEST);
      assert.equal(first.status, 'MISS', code);
      assert.equal(first.ttl, 0, code);
      assert.equal(first.staleTtl, false, code);
      assert.equal((await cache.answer(KEY, policy(), produce, REQUEST)).status, 'MISS', code);
      assert.equal(calls(), 2, code);
      assert.equal(memory.entries.size, 0, code);
    }
  });

  test('an answer failed without a code (nothing to classify it by) is never stored', async () => {
    const { cache, memory } = setup();
    assert.equal((await cache.answer(KEY, policy(), async () => answerOf(503, '"busy"'), REQUEST)).ttl, 0);
    assert.equal(memory.entries.size, 0);
  });

  test('a failure describing the target is stored for a minute only, and never served stale', async () => {
    for (const code of ['EFETCH', 'EMAXREDIRECTS', 'ETOOLARGE', 'EFORBIDDENURL'] as const) {
      const { cache, memory, advance } = setup();
      const { produce, calls } = producer(code);
      const first = await cache.answer(KEY, policy({ staleTtl: 0 }), produce, REQUEST);
      assert.equal(first.ttl, TARGET_FAILURE_TTL_MS, code);
      assert.equal(first.staleTtl, false, code);
      assert.equal(memory.entries.get(KEY)?.ttl, TARGET_FAILURE_TTL_MS, code);
      advance(TARGET_FAILURE_TTL_MS - 1);
      const hit = await cache.answer(KEY, policy({ staleTtl: 0 }), produce, REQUEST);
      assert.equal(hit.status, 'HIT', code);
      assert.equal(hit.answer.statusCode, ERRORS[code], code);
      assert.equal(calls(), 1, code);
      advance(1);
      assert.equal((await cache.answer(KEY, policy(), produce, REQUEST)).status, 'MISS', code);
      assert.equal(calls(), 2, code);
    }
    assert.ok(TARGET_FAILURE_TTL_MS <= MINUTE);
  });

  test('a stored target failure never outlives the ttl of the request that made it', async () => {
    const { cache, memory } = setup();
    const outcome = await cache.answer(KEY, policy({ ttl: 20 * SECOND }), producer('EFETCH').produce, REQUEST);
    assert.equal(outcome.ttl, 20 * SECOND);
    assert.equal(memory.entries.get(KEY)?.ttl, 20 * SECOND);
  });

  test('a failed force or refresh leaves the good entry in place', async () => {
    const { cache, refresher, memory, advance } = setup();
    await cache.answer(KEY, policy(), async () => answerOf(200, '"good"'), REQUEST);
    const failing = async () => failureOf('EFETCH');

    const forced = await cache.answer(KEY, policy({ force: true }), failing, REQUEST);
    assert.equal(forced.status, 'BYPASS');
    assert.equal(forced.answer.statusCode, 502);
    assert.equal(forced.ttl, 0, 'the failure is not to be reused');
    assert.equal(memory.entries.get(KEY)?.answer.body, '"good"');

    advance(HOUR);
    assert.equal((await cache.answer(KEY, policy({ staleTtl: MINUTE }), failing, REQUEST)).status, 'STALE');
    await refresher.idle();
    const after = await cache.answer(KEY, policy(), failing, REQUEST);
    assert.equal(after.status, 'HIT');
    assert.equal(after.answer.body, '"good"');
  });

  test('a miss that fails while a success is within its own lifetime answers that success, stale, and keeps it', async () => {
    const { cache, memory, advance } = setup();
    await cache.answer(KEY, policy({ ttl: DAY }), async () => answerOf(200, '"good"'), REQUEST);
    advance(10 * MINUTE);
    for (const code of ['EFETCH', 'ETIMEOUT', 'EFATAL'] as const) {
      const outcome = await cache.answer(KEY, policy({ ttl: MINUTE }), async () => failureOf(code), REQUEST);
      assert.equal(outcome.status, 'STALE', code);
      assert.equal(outcome.answer.statusCode, 200, code);
      assert.equal(outcome.answer.body, '"good"', code);
      assert.equal(outcome.age, 10 * MINUTE, code);
      assert.equal(memory.entries.get(KEY)?.answer.body, '"good"', code);
    }
  });

  test('a joiner with a later deadline does not inherit the flight\'s timeout: it produces on its own budget', async () => {
    const { cache, memory } = setup();
    const gate = deferred<Produced>();
    const produced: string[] = [];
    const short = () => {
      produced.push('short');
      return gate.promise;
    };
    const long = async () => {
      produced.push('long');
      return answerOf(200, '"long"');
    };
    const first = cache.answer(KEY, policy({ deadline: 2 * SECOND }), short, REQUEST);
    const joiner = cache.answer(KEY, policy({ deadline: 28 * SECOND }), long, REQUEST);
    gate.resolve(failureOf('ETIMEOUT'));
    assert.equal((await first).answer.statusCode, 504);
    const joined = await joiner;
    assert.equal(joined.status, 'MISS');
    assert.equal(joined.answer.body, '"long"');
    assert.deepEqual(produced, ['short', 'long']);
    assert.equal(memory.entries.get(KEY)?.answer.body, '"long"');
  });

  test('a joiner shares the flight\'s answer when it has no more time, or when the failure is not a timeout', async () => {
    for (const [deadline, failure] of [
      [2 * SECOND, 'ETIMEOUT'],
      [SECOND, 'EBRWSRTIMEOUT'],
      [28 * SECOND, 'EFETCH'],
      [28 * SECOND, 'EFATAL'],
    ] as const) {
      const { cache } = setup();
      const gate = deferred<Produced>();
      let calls = 0;
      const produce = () => {
        calls++;
        return gate.promise;
      };
      const first = cache.answer(KEY, policy({ deadline: 2 * SECOND }), produce, REQUEST);
      const joiner = cache.answer(KEY, policy({ deadline }), produce, REQUEST);
      gate.resolve(failureOf(failure));
      assert.equal((await first).answer.statusCode, ERRORS[failure]);
      assert.equal((await joiner).answer.statusCode, ERRORS[failure], `${failure} at ${deadline}`);
      assert.equal(calls, 1, `${failure} at ${deadline}`);
    }
  });

  test('a retry just after a timeout, with no more time, gets that timeout at once (force included); more time, later, or after a success, it produces', async () => {
    const { cache, advance } = setup();
    let time = 1_700_000_000_000;
    const now = () => time;
    const tick = (ms: number) => {
      time += ms;
      advance(ms);
    };
    let calls = 0;
    let next: Produced = failureOf('ETIMEOUT');
    const produce = async () => {
      calls++;
      return next;
    };
    const first = await cache.answer(KEY, policy({ force: true, deadline: now() + 2 * SECOND }), produce, REQUEST);
    assert.equal(first.answer.statusCode, 504);
    tick(2 * SECOND + 300);
    for (const force of [true, false]) {
      const retry = await cache.answer(KEY, policy({ force, deadline: now() + 2 * SECOND }), produce, REQUEST);
      assert.equal(retry.answer.statusCode, 504);
      assert.equal(retry.ttl, 0, 'never cached, never sent as cacheable');
    }
    assert.equal(calls, 1, 'the retries did not redo the work');

    const longer = await cache.answer(KEY, policy({ force: true, deadline: now() + 28 * SECOND }), produce, REQUEST);
    assert.equal(longer.answer.statusCode, 504);
    assert.equal(calls, 2, 'a request with more time produces on its own budget');

    tick(RETRY_WINDOW_MS + 1);
    await cache.answer(KEY, policy({ force: true, deadline: now() + 2 * SECOND }), produce, REQUEST);
    assert.equal(calls, 3, 'past the retry window it produces again');

    next = answerOf(200, '"good"');
    await cache.answer(KEY, policy({ force: true, deadline: now() + 28 * SECOND }), produce, REQUEST);
    next = failureOf('ETIMEOUT');
    tick(SECOND);
    const afterSuccess = await cache.answer(KEY, policy({ force: true, deadline: now() + 2 * SECOND }), produce, REQUEST);
    assert.equal(calls, 5, 'a success in between forgets the timeout');
    assert.equal(afterSuccess.answer.statusCode, 504);
  });

  test('concurrent misses of one key produce once; other keys are not held up', async () => {
    const { cache } = setup();
    const gate = deferred<Produced>();
    let calls = 0;
    const produce = () => {
      calls++;
      return gate.promise;
    };
    const pending = Promise.all([1, 2, 3].map(() => cache.answer(KEY, policy(), produce, REQUEST)));
    const other = await cache.answer('b'.repeat(64), policy(), async () => answerOf(200, '"other"'), REQUEST);
    assert.equal(other.status, 'MISS');
    gate.resolve(answerOf(200, '"shared"'));
    const outcomes = await pending;
    assert.equal(calls, 1);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'MISS');
      assert.equal(outcome.answer.body, '"shared"');
    }
  });

  test('a produce that throws fails every waiting request and stores nothing', async () => {
    const { cache, memory } = setup();
    const boom = async (): Promise<Produced> => {
      throw new Error('boom');
    };
    await assert.rejects(Promise.all([cache.answer(KEY, policy(), boom, REQUEST), cache.answer(KEY, policy(), boom, REQUEST)]), /boom/);
    assert.equal(memory.entries.size, 0);
    assert.equal((await cache.answer(KEY, policy(), async () => answerOf(200, '"ok"'), REQUEST)).status, 'MISS');
  });

  test('a failing store never fails the request: the answer is produced and the errors reported', async () => {
    const { cache, memory, errors } = setup();
    memory.fail(true);
    const { produce, calls } = producer();
    const outcome = await cache.answer(KEY, policy(), produce, REQUEST);
    assert.equal(outcome.status, 'MISS');
    assert.equal(outcome.answer.body, '{"version":1}');
    assert.equal(calls(), 1);
    assert.deepEqual(
      errors.map(({ context }) => context),
      [
        { key: KEY, action: 'read' },
        { key: KEY, action: 'store' },
      ],
    );
  });

  test('with caching off every request produces, still once per key at a time', async () => {
    const cache = new ResultCache(undefined, { refresh: createLocalRefresher().refresh });
    const { produce, calls } = producer();
    const [a, b] = await Promise.all([cache.answer(KEY, policy(), produce, REQUEST), cache.answer(KEY, policy(), produce, REQUEST)]);
    assert.equal(a.status, 'MISS');
    assert.deepEqual(a.answer, b.answer);
    assert.equal(a.ttl, DAY, 'an edge cache may still keep it');
    assert.equal((await cache.answer(KEY, policy(), produce, REQUEST)).answer.body, '{"version":2}');
    assert.equal(calls(), 2);
  });

  test('a refresh that returns a promise (Lambda) is awaited, and its failure only reported', async () => {
    let time = 0;
    const memory = memoryStore();
    const jobs: RefreshJob[] = [];
    const errors: CacheErrorContext[] = [];
    let settled = false;
    const cache = new ResultCache(memory.store, {
      now: () => time,
      refresh: async (job) => {
        jobs.push(job);
        await new Promise((resolve) => setTimeout(resolve, 20));
        settled = true;
        throw new Error('invoke failed');
      },
      onError: (_error, context) => void errors.push(context),
    });
    await cache.answer(KEY, policy(), async () => answerOf(200, '"old"'), REQUEST);
    time += 2 * MINUTE;
    const outcome = await cache.answer(KEY, policy({ staleTtl: MINUTE }), async () => answerOf(200, '"new"'), REQUEST);
    assert.equal(outcome.status, 'STALE');
    assert.equal(settled, true, 'the invocation was sent before the answer');
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0]?.key, KEY);
    assert.deepEqual(jobs[0]?.request, REQUEST);
    assert.deepEqual(errors, [{ key: KEY, action: 'refresh' }]);
  });
});
