/** The in-memory front: hot entries answered without the store, bounded in bytes and in age. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CacheEntry, CacheStore } from '../../lib/cache/index.ts';
import { withMemory } from '../../lib/cache/memory.ts';

const entry = (body: string): CacheEntry => ({ answer: { statusCode: 200, headers: {}, body }, createdAt: 1, ttl: 60_000 });

function countingStore(): CacheStore & { gets: number; data: Map<string, CacheEntry> } {
  const data = new Map<string, CacheEntry>();
  return {
    data,
    gets: 0,
    async get(key) {
      this.gets++;
      return data.get(key);
    },
    async set(key, value) {
      data.set(key, value);
    },
  };
}

test('a set writes through; later gets answer from memory', async () => {
  const store = countingStore();
  const front = withMemory(store);
  await front.set('k', entry('a'));
  assert.deepEqual(store.data.get('k'), entry('a'));
  assert.deepEqual(await front.get('k'), entry('a'));
  assert.deepEqual(await front.get('k'), entry('a'));
  assert.equal(store.gets, 0);
});

test('a miss in memory reads the store once, then remembers', async () => {
  const store = countingStore();
  store.data.set('k', entry('b'));
  const front = withMemory(store);
  await front.get('k');
  await front.get('k');
  assert.equal(store.gets, 1);
  assert.equal(await front.get('absent'), undefined);
});

test('past maxAgeMs the store is read again, so another writer is seen', async () => {
  let now = 0;
  const store = countingStore();
  const front = withMemory(store, { maxAgeMs: 1000, now: () => now });
  await front.set('k', entry('old'));
  store.data.set('k', entry('new'));
  now = 999;
  assert.equal((await front.get('k'))?.answer.body, 'old');
  now = 1000;
  assert.equal((await front.get('k'))?.answer.body, 'new');
});

test('the least recently used entries go once the bytes pass the bound', async () => {
  const store = countingStore();
  const front = withMemory(store, { maxBytes: 3 * (1000 + 512) });
  for (const key of ['a', 'b', 'c']) await front.set(key, entry('x'.repeat(1000)));
  await front.get('a'); // a is now the most recently used
  await front.set('d', entry('x'.repeat(1000)));
  store.gets = 0;
  await front.get('a');
  await front.get('c');
  await front.get('d');
  assert.equal(store.gets, 0, 'a, c and d stayed');
  await front.get('b');
  assert.equal(store.gets, 1, 'b was evicted');
});
