/**
 * The local folders bounded by size, not only by age (issue 26): under a write loop the assets folder and the
 * cache folder stay within their bound, the least recently used going first; a cache entry past its own `ttl` is
 * not served and its file is removed, whether a read meets it or a later trim (after a restart) does.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLocalCacheStore } from '../../lib/cache/local.ts';
import { createLocalStorage } from '../../lib/storage/local.ts';
import { freshKey, sampleEntry } from '../cache/contract.ts';

const DAY = 24 * 3_600_000;
const KIB = 1024;

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'glance-budget-'));
});
after(() => rm(root, { recursive: true, force: true }));

/** Bytes of the files in `dir`, temporaries included (what the disk holds). */
async function folderBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => []);
  const sizes = await Promise.all(names.map((name) => stat(join(dir, name)).then((file) => file.size, () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

describe('local storage bounded by size', () => {
  test('a write loop stays within the bound; the asset read all along stays, the oldest unread go', async () => {
    const dir = join(root, 'assets');
    const maxBytes = 1024 * KIB;
    const storage = createLocalStorage(dir, 'https://cdn.test', { retention: 31 * DAY, maxBytes });
    const kept = await storage.put(randomBytes(100 * KIB), 'image/png');
    const first = await storage.put(randomBytes(100 * KIB), 'image/png');
    let largest = 0;
    for (let n = 0; n < 40; n++) {
      await storage.put(randomBytes(100 * KIB), 'image/png');
      assert.ok(await storage.get(kept.key), `the asset in use is still there after ${n} writes`);
      largest = Math.max(largest, await folderBytes(dir));
    }
    await storage.sweep!();
    assert.ok((await folderBytes(dir)) <= maxBytes, `${await folderBytes(dir)} bytes after the loop`);
    // Trims run beside the writes, never on their path: the folder passes the bound by what was written meanwhile.
    assert.ok(largest <= maxBytes + 4 * 100 * KIB, `the folder held ${largest} bytes at most`);
    assert.ok(await storage.get(kept.key), 'the recently read asset is kept');
    assert.equal(await storage.get(first.key), undefined, 'the least recently used went first');
  });

  test('files already there at start are counted, oldest write first', async () => {
    const dir = join(root, 'restart');
    const maxBytes = 512 * KIB;
    const before = createLocalStorage(dir, 'https://cdn.test', { retention: 31 * DAY, maxBytes: 64 * 1024 * KIB });
    const old = await before.put(randomBytes(200 * KIB), 'image/png');
    const recent = await before.put(randomBytes(200 * KIB), 'image/png');
    const newest = await before.put(randomBytes(200 * KIB), 'image/png');
    const hour = Date.now() / 1000 - 3_600;
    await utimes(join(dir, old.key), hour - 60, hour - 60);
    await utimes(join(dir, recent.key), hour, hour);
    const after = createLocalStorage(dir, 'https://cdn.test', { retention: 31 * DAY, maxBytes });
    assert.ok((await after.sweep!()) >= 1);
    assert.equal(await after.get(old.key), undefined);
    assert.ok(await after.get(newest.key));
    assert.ok((await folderBytes(dir)) <= maxBytes);
  });
});

describe('local cache bounded by size and by ttl', () => {
  test('a write loop stays within the bound', async () => {
    const dir = join(root, 'cache-loop');
    const maxBytes = 1024 * KIB;
    const store = createLocalCacheStore(dir, { retention: 31 * DAY, maxBytes });
    const body = JSON.stringify({ blob: 'x'.repeat(100 * KIB) });
    for (let n = 0; n < 40; n++) await store.set(freshKey(), { ...sampleEntry(body), createdAt: Date.now(), ttl: DAY });
    await store.sweep!();
    assert.ok((await folderBytes(dir)) <= maxBytes, `${await folderBytes(dir)} bytes after the loop`);
  });

  test('an entry past its ttl is not served and its file is removed by the read', async () => {
    const dir = join(root, 'cache-ttl');
    let clock = Date.now();
    const store = createLocalCacheStore(dir, { retention: 31 * DAY, now: () => clock });
    const key = freshKey();
    await store.set(key, { ...sampleEntry(), createdAt: clock, ttl: 60_000 });
    assert.ok(await store.get(key), 'served within its ttl');
    clock += 60_000;
    assert.equal(await store.get(key), undefined);
    assert.deepEqual(await readdir(dir), []);
  });

  test('an entry past its ttl written before a restart is removed by the next sweep, unread', async () => {
    const dir = join(root, 'cache-restart');
    await mkdir(dir, { recursive: true });
    const clock = Date.now();
    const first = createLocalCacheStore(dir, { retention: 31 * DAY, now: () => clock });
    const [expiring, lasting] = [freshKey(), freshKey()];
    await first.set(expiring, { ...sampleEntry(), createdAt: clock, ttl: 60_000 });
    await first.set(lasting, { ...sampleEntry(), createdAt: clock, ttl: DAY });
    // Not an entry: left alone.
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const restarted = createLocalCacheStore(dir, { retention: 31 * DAY, now: () => clock + 60_000 });
    assert.equal(await restarted.sweep!(), 1);
    assert.deepEqual((await readdir(dir)).sort(), [`${lasting}.json`, 'notes.txt'].sort());
  });
});
