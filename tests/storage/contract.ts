/**
 * The one behaviour every Storage implementation owes its callers (undici's habit: each store runs the same
 * suite). Each implementation's test file supplies a factory; the factory may be called more than once and every
 * instance it returns must see the same objects.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isGlanceError } from '../../lib/errors.ts';
import { ASSET_CACHE_CONTROL, type Storage } from '../../lib/storage/index.ts';

export const CDN_URL = 'https://cdn.glance.test';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Fresh bytes per call, so runs never depend on what an earlier run left behind. */
const bytes = (size = 1024): Buffer => randomBytes(size);

export function storageContract(name: string, makeStorage: (cdnUrl: string) => Storage | Promise<Storage>): void {
  const storage = () => makeStorage(CDN_URL);

  describe(`Storage contract: ${name}`, () => {
    test('put answers the content-addressed key, its CDN URL, the size and the content type', async () => {
      const body = bytes();
      const stored = await (await storage()).put(body, 'image/png');
      assert.deepEqual(stored, {
        key: `${sha256(body)}.png`,
        url: `${CDN_URL}/${sha256(body)}.png`,
        size: body.length,
        contentType: 'image/png',
      });
    });

    test('get answers the identical bytes, the content type and the immutable cache policy', async () => {
      const store = await storage();
      const body = bytes(2 * 1024 * 1024);
      const { key } = await store.put(body, 'image/png');
      const object = await store.get(key);
      assert.ok(object, 'stored object not found');
      assert.ok(object.body.equals(body), 'bytes differ');
      assert.equal(object.contentType, 'image/png');
      assert.equal(object.cacheControl, ASSET_CACHE_CONTROL);
      assert.equal(ASSET_CACHE_CONTROL, 'public, max-age=31536000, immutable');
    });

    test('the same bytes give the same key, readable from another instance', async () => {
      const body = bytes();
      const first = await (await storage()).put(body, 'image/png');
      const second = await (await storage()).put(Buffer.from(body), 'image/png');
      assert.equal(second.key, first.key);
      assert.equal(second.url, first.url);
      assert.ok((await (await storage()).get(first.key))?.body.equals(body));
    });

    test('different bytes give different keys, each reading back its own bytes', async () => {
      const store = await storage();
      const [a, b] = [bytes(), bytes()];
      const [storedA, storedB] = [await store.put(a, 'image/png'), await store.put(b, 'image/png')];
      assert.notEqual(storedA.key, storedB.key);
      assert.ok((await store.get(storedA.key))?.body.equals(a));
      assert.ok((await store.get(storedB.key))?.body.equals(b));
    });

    test('the extension and content type follow the stored type', async () => {
      const store = await storage();
      const body = bytes();
      const cases = [
        ['image/jpeg', 'jpg', 'image/jpeg'],
        ['image/jpg', 'jpg', 'image/jpeg'],
        ['application/pdf', 'pdf', 'application/pdf'],
        ['image/webp', 'webp', 'image/webp'],
        ['Image/PNG; charset=binary', 'png', 'image/png'],
        ['application/json', 'json', 'application/json'],
        ['text/html', 'html', 'text/html; charset=utf-8'],
        ['text/csv; charset=utf-8', 'csv', 'text/csv; charset=utf-8'],
      ] as const;
      for (const [given, extension, contentType] of cases) {
        const stored = await store.put(body, given);
        assert.equal(stored.key, `${sha256(body)}.${extension}`, given);
        assert.equal(stored.contentType, contentType, given);
        assert.equal((await store.get(stored.key))?.contentType, contentType, given);
      }
    });

    test('an unsupported content type is refused as EFATAL, storing nothing', async () => {
      const store = await storage();
      const body = bytes();
      await assert.rejects(store.put(body, 'text/javascript'), (error) => isGlanceError(error) && error.code === 'EFATAL');
      for (const extension of ['png', 'jpg', 'pdf', 'webp', 'json', 'html', 'csv']) {
        assert.equal(await store.get(`${sha256(body)}.${extension}`), undefined);
      }
    });

    test('a put whose request ran out of time fails as ETIMEOUT, storing nothing', async () => {
      const store = await storage();
      const body = bytes();
      await assert.rejects(
        store.put(body, 'image/png', AbortSignal.abort()),
        (error) => isGlanceError(error) && error.code === 'ETIMEOUT',
      );
      assert.equal(await store.get(`${sha256(body)}.png`), undefined);
    });

    test('an unknown key answers undefined', async () => {
      assert.equal(await (await storage()).get(`${sha256(bytes())}.png`), undefined);
    });

    test('keys that are not storage keys answer undefined, even around a stored object', async () => {
      const store = await storage();
      const { key } = await store.put(bytes(), 'image/png');
      const hash = key.slice(0, 64);
      const malicious = [
        '../x',
        'a/b',
        `../${key}`,
        `./${key}`,
        `x/../${key}`,
        `/${key}`,
        `${key}/`,
        `${hash.toUpperCase()}.png`,
        `${hash}.PNG`,
        `${hash}.html`,
        `${hash}.png\0`,
        `${hash.slice(1)}.png`,
        '',
      ];
      for (const bad of malicious) assert.equal(await store.get(bad), undefined, JSON.stringify(bad));
      assert.ok(await store.get(key), 'the real key still reads');
    });

    test('a named put is keyed `<sha256>/<name>.<ext>`, its URL ends with the name, and it reads back with its Content-Disposition', async () => {
      const store = await storage();
      const body = bytes();
      const stored = await store.put(body, 'application/pdf', undefined, 'invoice');
      assert.deepEqual(stored, {
        key: `${sha256(body)}/invoice.pdf`,
        url: `${CDN_URL}/${sha256(body)}/invoice.pdf`,
        size: body.length,
        contentType: 'application/pdf',
      });
      const object = await store.get(stored.key);
      assert.ok(object, 'stored object not found');
      assert.ok(object.body.equals(body), 'bytes differ');
      assert.equal(object.contentType, 'application/pdf');
      assert.equal(object.cacheControl, ASSET_CACHE_CONTROL);
      assert.equal(object.contentDisposition, 'inline; filename="invoice.pdf"');
      assert.equal((await (await storage()).get(stored.key))?.contentDisposition, 'inline; filename="invoice.pdf"', 'another instance');
      assert.equal((await store.put(body, 'application/pdf')).key, `${sha256(body)}.pdf`);
      assert.equal((await store.get(`${sha256(body)}.pdf`))?.contentDisposition, undefined, 'the unnamed key has none');
    });

    test('a non-ASCII name is its URL percent-encoded and its Content-Disposition with filename* (RFC 8187)', async () => {
      const store = await storage();
      const body = bytes();
      const stored = await store.put(body, 'image/png', undefined, 'Résumé 报告');
      assert.equal(stored.key, `${sha256(body)}/Résumé 报告.png`);
      assert.equal(stored.url, `${CDN_URL}/${sha256(body)}/R%C3%A9sum%C3%A9%20%E6%8A%A5%E5%91%8A.png`);
      assert.equal(
        (await store.get(stored.key))?.contentDisposition,
        `inline; filename="Resume _.png"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E6%8A%A5%E5%91%8A.png`,
      );
    });

    test('the same bytes under two names are two objects, each with its own name; a name never put is absent', async () => {
      const store = await storage();
      const body = bytes();
      const [a, b] = [await store.put(body, 'image/png', undefined, 'a'), await store.put(body, 'image/png', undefined, 'b')];
      assert.notEqual(a.key, b.key);
      assert.equal((await store.get(a.key))?.contentDisposition, 'inline; filename="a.png"');
      assert.equal((await store.get(b.key))?.contentDisposition, 'inline; filename="b.png"');
      assert.equal(await store.get(`${sha256(body)}/c.png`), undefined);
      // Other bytes under a name already used: their own object, the first one intact.
      const other = bytes();
      const c = await store.put(other, 'image/png', undefined, 'a');
      assert.notEqual(c.key, a.key);
      assert.ok((await store.get(a.key))?.body.equals(body));
      assert.ok((await store.get(c.key))?.body.equals(other));
    });

    test('a name that is not in its safe form is refused by put and never read', async () => {
      const store = await storage();
      const body = bytes();
      await assert.rejects(store.put(body, 'image/png', undefined, '../x'), (error) => isGlanceError(error) && error.code === 'EFATAL');
      await store.put(body, 'image/png', undefined, 'ok');
      for (const name of ['../ok', 'ok/..', 'o\\k', 'ok.png', ' ok', 'o%6B', '']) {
        assert.equal(await store.get(`${sha256(body)}/${name}.png`), undefined, JSON.stringify(name));
      }
    });

    test('concurrent puts of the same bytes all succeed and leave one intact object', async () => {
      const body = bytes(512 * 1024);
      const stores = await Promise.all([storage(), storage(), storage(), storage()]);
      const results = await Promise.all(stores.map((store) => store.put(body, 'application/pdf')));
      assert.equal(new Set(results.map((result) => result.key)).size, 1);
      assert.ok((await stores[0]!.get(results[0]!.key))?.body.equals(body));
    });
  });
}
