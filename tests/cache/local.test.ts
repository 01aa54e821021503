import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCacheStore } from '../../lib/cache/index.ts';
import { createLocalCacheStore } from '../../lib/cache/local.ts';
import { isGlanceError } from '../../lib/errors.ts';
import { cacheStoreContract, freshKey, sampleEntry } from './contract.ts';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'glance-cache-'));
});
after(() => rm(root, { recursive: true, force: true }));

// A folder that does not exist yet: the store creates it on first set.
const dir = () => join(root, 'nested', 'cache');
const file = (key: string) => join(dir(), `${key}.json`);

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

cacheStoreContract('local', () => ({
  store: createLocalCacheStore(dir()),
  readRaw: (key) => readFile(file(key)).catch((error: unknown) => (codeOf(error) === 'ENOENT' ? undefined : Promise.reject(error))),
  writeRaw: (key, bytes) => writeFile(file(key), bytes),
}));

describe('local cache store', () => {
  test('caching off gives no store', () => {
    assert.equal(createCacheStore({ kind: 'off' }), undefined);
  });

  test('writes one file per key and leaves no temporary files', async () => {
    const store = createLocalCacheStore(dir());
    const key = freshKey();
    await Promise.all(Array.from({ length: 8 }, (_, index) => store.set(key, { ...sampleEntry(), createdAt: index })));
    const names = await readdir(dir());
    assert.ok(names.includes(`${key}.json`));
    assert.deepEqual(names.filter((name) => name.endsWith('.tmp')), []);
    assert.ok(await store.get(key), 'the last complete write is readable');
  });

  test('a reader never sees half an entry while sets are writing it', async () => {
    const store = createLocalCacheStore(join(root, 'atomic'));
    const key = freshKey();
    const big = sampleEntry(JSON.stringify({ blob: 'x'.repeat(4 * 1024 * 1024) }));
    let writing = true;
    const writers = Promise.all([store.set(key, big), store.set(key, big), store.set(key, big)]).finally(() => {
      writing = false;
    });
    let reads = 0;
    const reader = async () => {
      while (writing) {
        const entry = await store.get(key);
        reads++;
        if (entry) assert.equal(entry.answer.body.length, big.answer.body.length, 'a partial entry was visible');
      }
    };
    await Promise.all([writers, reader(), reader()]);
    assert.ok(reads > 0);
    assert.deepEqual(await store.get(key), big);
  });

  test('a folder that cannot be created fails set as EFATAL without naming the path', async () => {
    const blocker = join(root, 'a-file');
    await writeFile(blocker, 'not a folder');
    const store = createLocalCacheStore(join(blocker, 'cache'));
    await assert.rejects(store.set(freshKey(), sampleEntry()), (error) => {
      assert.ok(isGlanceError(error));
      assert.equal(error.code, 'EFATAL');
      assert.ok(!error.message.includes(root));
      return true;
    });
  });
});
