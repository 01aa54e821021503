import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETENTION_MS } from '../../lib/config.ts';
import { createCacheStore } from '../../lib/stores.ts';
import { createLocalCacheStore } from '../../lib/cache/local.ts';
import { isGlanceError } from '../../lib/errors.ts';
import { createSweeper } from '../../lib/storage/sweep.ts';
import { assertSameEntry, cacheStoreContract, freshKey, sampleEntry } from './contract.ts';
import { lengthOf } from '../../lib/text/pieces.ts';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'glance-cache-'));
});
after(() => rm(root, { recursive: true, force: true }));

// A folder that does not exist yet: the store creates it on first set.
const dir = () => join(root, 'nested', 'cache');
const file = (key: string) => join(dir(), `${key}.json`);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

// The sample entries carry fixed dates (some from 1970); a clock at the epoch keeps them all unexpired in the
// tests that are not about expiry,
// which has its own tests below.
cacheStoreContract('local', () => ({
  store: createLocalCacheStore(dir(), { retention: DEFAULT_RETENTION_MS, now: () => 0 }),
  readRaw: (key) => readFile(file(key)).catch((error: unknown) => (codeOf(error) === 'ENOENT' ? undefined : Promise.reject(error))),
  writeRaw: (key, bytes) => writeFile(file(key), bytes),
}));

describe('local cache store', () => {
  test('caching off gives no store', () => {
    assert.equal(createCacheStore({ kind: 'off' }), undefined);
  });

  test('writes one file per key and leaves no temporary files', async () => {
    const store = createLocalCacheStore(dir(), { retention: DEFAULT_RETENTION_MS, now: () => 0 });
    const key = freshKey();
    await Promise.all(Array.from({ length: 8 }, (_, index) => store.set(key, { ...sampleEntry(), createdAt: index })));
    const names = await readdir(dir());
    assert.ok(names.includes(`${key}.json`));
    assert.deepEqual(names.filter((name) => name.endsWith('.tmp')), []);
    assert.ok(await store.get(key), 'the last complete write is readable');
  });

  test('a reader never sees half an entry while sets are writing it', async () => {
    const store = createLocalCacheStore(join(root, 'atomic'), { retention: DEFAULT_RETENTION_MS, now: () => 0 });
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
        if (entry) assert.equal(lengthOf(entry.answer.body), big.answer.body.length, 'a partial entry was visible');
      }
    };
    await Promise.all([writers, reader(), reader()]);
    assert.ok(reads > 0);
    assertSameEntry(await store.get(key), big);
  });

  test('an entry past its own ttl or past the retention is never answered', async () => {
    const store = createLocalCacheStore(join(root, 'expiry'), { retention: HOUR });
    const now = Date.now();
    const [fresh, pastTtl, pastRetention] = [freshKey(), freshKey(), freshKey()];
    await store.set(fresh, { ...sampleEntry('"fresh"'), createdAt: now - 30 * MINUTE, ttl: HOUR });
    await store.set(pastTtl, { ...sampleEntry('"past ttl"'), createdAt: now - 2 * MINUTE, ttl: MINUTE });
    await store.set(pastRetention, { ...sampleEntry('"past retention"'), createdAt: now - 2 * HOUR, ttl: DAY });
    assert.equal((await store.get(fresh))?.answer.body, '"fresh"');
    assert.equal(await store.get(pastTtl), undefined);
    assert.equal(await store.get(pastRetention), undefined);
  });

  test('the sweep deletes entries and stray temporary files older than the retention, keeps newer ones and foreign files', async () => {
    const folder = join(root, 'sweep');
    const store = createLocalCacheStore(folder, { retention: HOUR });
    const [old, young] = [freshKey(), freshKey()];
    // Within their ttl: only the retention decides here.
    await store.set(old, { ...sampleEntry('"old"'), createdAt: Date.now() });
    await store.set(young, { ...sampleEntry('"young"'), createdAt: Date.now() });
    await writeFile(join(folder, `.${old}.0000.tmp`), 'half');
    await writeFile(join(folder, 'README'), 'not ours');
    const past = new Date(Date.now() - 2 * HOUR);
    for (const name of [`${old}.json`, `.${old}.0000.tmp`, 'README']) await utimes(join(folder, name), past, past);
    assert.equal(await store.sweep?.(), 2);
    assert.deepEqual((await readdir(folder)).sort(), ['README', `${young}.json`].sort());
  });

  test('a sweep examines a bounded number of names and the next one carries on', async () => {
    const folder = join(root, 'bounded');
    await mkdir(folder, { recursive: true });
    const past = new Date(Date.now() - 2 * HOUR);
    for (let i = 0; i < 25; i++) {
      const path = join(folder, `${freshKey()}.json`);
      await writeFile(path, '{}');
      await utimes(path, past, past);
    }
    const sweeper = createSweeper(folder, { retention: HOUR, owns: () => true, perSweep: 10, batch: 4 });
    assert.equal(await sweeper.sweep(), 10);
    assert.equal((await readdir(folder)).length, 15);
    assert.equal(await sweeper.sweep(), 10);
    assert.equal(await sweeper.sweep(), 5);
    assert.deepEqual(await readdir(folder), []);
    assert.equal(await sweeper.sweep(), 0, 'a missing or empty folder is no error');
  });

  test('a folder that cannot be created fails set as EFATAL without naming the path', async () => {
    const blocker = join(root, 'a-file');
    await writeFile(blocker, 'not a folder');
    const store = createLocalCacheStore(join(blocker, 'cache'), { retention: DEFAULT_RETENTION_MS });
    await assert.rejects(store.set(freshKey(), sampleEntry()), (error) => {
      assert.ok(isGlanceError(error));
      assert.equal(error.code, 'EFATAL');
      assert.ok(!error.message.includes(root));
      return true;
    });
  });
});
