import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETENTION_MS, DEFAULT_STORAGE_MAX_BYTES } from '../../lib/config.ts';
import type { Storage, StoredObject } from '../../lib/storage/index.ts';
import { createStorage } from '../../lib/stores.ts';
import { serveAsset } from '../../lib/storage/serve.ts';
import { CDN_URL } from './contract.ts';

let dir: string;
let storage: Storage;
let stored: StoredObject;
const body = randomBytes(3000);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-serve-'));
  storage = createStorage({ kind: 'local', dir, retention: DEFAULT_RETENTION_MS, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN_URL);
  stored = await storage.put(body, 'image/png');
});
after(() => rm(dir, { recursive: true, force: true }));

const etag = () => `"${stored.key.slice(0, 64)}"`;

describe('serveAsset', () => {
  test('GET answers 200 with the bytes and the headers an embeddable, immutable asset needs', async () => {
    const response = await serveAsset(storage, stored.key, 'GET', {});
    assert.ok(response);
    assert.equal(response.statusCode, 200);
    assert.ok(response.body.equals(body));
    assert.deepEqual(response.headers, {
      'content-type': 'image/png',
      'content-length': String(body.length),
      'cache-control': 'public, max-age=31536000, immutable',
      etag: etag(),
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
    });
  });

  test("a stored HTML report runs sandboxed, in an opaque origin rather than the service's own", async () => {
    const report = await storage.put(Buffer.from('<!doctype html><script>1</script>'), 'text/html');
    const response = await serveAsset(storage, report.key, 'GET', {});
    assert.equal(response?.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(response?.headers['content-security-policy'], 'sandbox allow-scripts allow-popups');
    assert.equal((await serveAsset(storage, stored.key, 'GET', {}))?.headers['content-security-policy'], undefined);
  });

  test('HEAD answers the same headers without a body', async () => {
    const [get, head] = await Promise.all([
      serveAsset(storage, stored.key, 'GET'),
      serveAsset(storage, stored.key, 'HEAD'),
    ]);
    assert.ok(get && head);
    assert.equal(head.statusCode, 200);
    assert.deepEqual(head.headers, get.headers);
    assert.equal(head.body.length, 0);
  });

  test('a matching If-None-Match answers 304 without a body', async () => {
    for (const ifNoneMatch of [etag(), `W/${etag()}`, `"other", ${etag()}`, '*']) {
      const response = await serveAsset(storage, stored.key, 'GET', { 'If-None-Match': ifNoneMatch });
      assert.ok(response, ifNoneMatch);
      assert.equal(response.statusCode, 304, ifNoneMatch);
      assert.equal(response.body.length, 0);
      assert.equal(response.headers.etag, etag());
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
  });

  test('an If-None-Match for other content answers 200', async () => {
    const response = await serveAsset(storage, stored.key, 'GET', { 'if-none-match': `"${'0'.repeat(64)}"` });
    assert.equal(response?.statusCode, 200);
    assert.ok(response.body.equals(body));
  });

  test('an unknown or invalid key answers undefined (the caller answers 404)', async () => {
    for (const key of [`${'0'.repeat(64)}.png`, '../package.json', 'a/b', stored.key.toUpperCase(), '']) {
      assert.equal(await serveAsset(storage, key, 'GET'), undefined, key);
    }
  });

  test('a named asset is served at its percent-encoded path with its Content-Disposition', async () => {
    const named = await storage.put(body, 'application/pdf', undefined, 'Relevé 2024');
    const path = named.url.slice(CDN_URL.length + 1);
    assert.equal(path, `${named.key.slice(0, 64)}/Relev%C3%A9%202024.pdf`);
    const response = await serveAsset(storage, path, 'GET', {});
    assert.equal(response?.statusCode, 200);
    assert.ok(response.body.equals(body));
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.equal(response.headers['content-disposition'], `inline; filename="Releve 2024.pdf"; filename*=UTF-8''Relev%C3%A9%202024.pdf`);
    assert.equal(response.headers.etag, etag(), 'the ETag is the content hash');
    const head = await serveAsset(storage, path, 'HEAD', {});
    assert.equal(head?.headers['content-disposition'], response.headers['content-disposition']);
    assert.equal(head.body.length, 0);
    assert.equal((await serveAsset(storage, stored.key, 'GET', {}))?.headers['content-disposition'], undefined, 'an unnamed asset has none');
  });

  test('a path that does not decode to a stored key answers undefined: bad escapes, encoded separators, other names', async () => {
    await storage.put(body, 'application/pdf', undefined, 'doc');
    const hash = stored.key.slice(0, 64);
    assert.ok(await serveAsset(storage, `${hash}/doc.pdf`, 'GET'));
    assert.ok(await serveAsset(storage, `${hash}/%64oc.pdf`, 'GET'), 'any escape of the same name decodes to it');
    for (const path of [`${hash}/%E0%A4%A.pdf`, `${hash}/%2E%2E%2Fdoc.pdf`, `${hash}/..%2Fdoc.pdf`, `${hash}%2Fdoc.pdf%00`, `${hash}/other.pdf`, `${hash}/doc.png`]) {
      assert.equal(await serveAsset(storage, path, 'GET'), undefined, path);
    }
  });

  test('other methods answer 405 naming the allowed ones', async () => {
    const response = await serveAsset(storage, stored.key, 'POST');
    assert.equal(response?.statusCode, 405);
    assert.equal(response.headers.allow, 'GET, HEAD');
    assert.equal(response.body.length, 0);
  });
});
