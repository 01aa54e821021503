import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETENTION_MS, DEFAULT_STORAGE_MAX_BYTES } from '../../lib/config.ts';
import { isGlanceError } from '../../lib/errors.ts';
import { createStorage } from '../../lib/stores.ts';
import { CDN_URL, storageContract } from './contract.ts';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'glance-storage-'));
});
after(() => rm(root, { recursive: true, force: true }));

// A folder that does not exist yet: the storage creates it on first put.
const dir = () => join(root, 'nested', 'assets');

storageContract('local', (cdnUrl) => createStorage({ kind: 'local', dir: dir(), retention: DEFAULT_RETENTION_MS, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, cdnUrl));

describe('local storage', () => {
  test('writes each object as a file named by its key, leaving no temporary files', async () => {
    const storage = createStorage({ kind: 'local', dir: dir(), retention: DEFAULT_RETENTION_MS, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN_URL);
    const body = randomBytes(4096);
    const { key } = await storage.put(body, 'image/webp');
    assert.ok((await readFile(join(dir(), key))).equals(body));
    const names = await readdir(dir());
    assert.deepEqual(names.filter((name) => name.endsWith('.tmp')), []);
  });

  test('a reader never sees half a file while puts are writing it', async () => {
    const storage = createStorage({ kind: 'local', dir: join(root, 'atomic'), retention: DEFAULT_RETENTION_MS, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN_URL);
    for (let round = 0; round < 3; round++) {
      const body = randomBytes(4 * 1024 * 1024);
      const key = `${createHash('sha256').update(body).digest('hex')}.png`;
      let writing = true;
      const writers = Promise.all([storage.put(body, 'image/png'), storage.put(body, 'image/png')]).finally(() => {
        writing = false;
      });
      const reader = async () => {
        while (writing) {
          const object = await storage.get(key);
          if (object) assert.equal(object.body.length, body.length, 'a partial file was visible');
        }
      };
      await Promise.all([writers, reader(), reader(), reader(), reader()]);
      assert.ok((await storage.get(key))?.body.equals(body));
    }
  });

  test('cannot read a file outside its folder', async () => {
    const storage = createStorage({ kind: 'local', dir: dir(), retention: DEFAULT_RETENTION_MS, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN_URL);
    await storage.put(randomBytes(16), 'image/png');
    await writeFile(join(root, 'nested', 'secret.png'), 'secret');
    assert.equal(await storage.get('../secret.png'), undefined);
  });

  test('a folder that cannot be created fails as EFATAL with the cause kept', async () => {
    const blocker = join(root, 'a-file');
    await writeFile(blocker, 'not a folder');
    const storage = createStorage({ kind: 'local', dir: join(blocker, 'assets'), retention: DEFAULT_RETENTION_MS, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN_URL);
    await assert.rejects(storage.put(randomBytes(16), 'image/png'), (error) => {
      assert.ok(isGlanceError(error));
      assert.equal(error.code, 'EFATAL');
      assert.ok(error.cause instanceof Error);
      assert.ok(!error.message.includes(root), 'the message names no server path');
      return true;
    });
  });

  test('the sweep deletes assets older than the retention and keeps newer ones; a put of stored bytes starts it over', async () => {
    const folder = join(root, 'retention');
    const HOUR = 3_600_000;
    const storage = createStorage({ kind: 'local', dir: folder, retention: HOUR, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN_URL);
    const [old, young, reused] = [randomBytes(64), randomBytes(64), randomBytes(64)];
    const keys = await Promise.all([old, young, reused].map((body) => storage.put(body, 'image/png')));
    const past = new Date(Date.now() - 2 * HOUR);
    for (const { key } of [keys[0]!, keys[2]!]) await utimes(join(folder, key), past, past);
    // An answer made now names the reused bytes again: they must outlive it.
    await storage.put(Buffer.from(reused), 'image/png');
    assert.equal(await storage.sweep?.(), 1);
    assert.deepEqual((await readdir(folder)).sort(), [keys[1]!.key, keys[2]!.key].sort());
    assert.equal(await storage.get(keys[0]!.key), undefined);
    assert.ok((await storage.get(keys[2]!.key))?.body.equals(reused));
  });

  test('named assets are flat files of fixed-length names, one per name, swept like the others', async () => {
    const folder = join(root, 'named');
    const HOUR = 3_600_000;
    const storage = createStorage({ kind: 'local', dir: folder, retention: HOUR, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN_URL);
    const body = randomBytes(64);
    const long = await storage.put(body, 'application/pdf', undefined, '报告'.repeat(21));
    const short = await storage.put(body, 'application/pdf', undefined, 'a');
    const names = await readdir(folder);
    assert.equal(names.length, 2);
    for (const name of names) assert.match(name, /^[0-9a-f]{64}\.[0-9a-f]{32}\.pdf$/);
    const past = new Date(Date.now() - 2 * HOUR);
    for (const name of names) await utimes(join(folder, name), past, past);
    await storage.put(body, 'application/pdf', undefined, 'a');
    assert.equal(await storage.sweep?.(), 1, 'the name not put again is past its retention');
    assert.equal(await storage.get(long.key), undefined);
    assert.equal((await storage.get(short.key))?.contentDisposition, 'inline; filename="a.pdf"');
  });
});
