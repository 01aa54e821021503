/**
 * The behaviour every CacheStore owes ResultCache (undici's habit: each store runs the same suite). Each
 * implementation supplies a store plus raw access to where an entry's bytes live, so the suite can damage them
 * the way a crash, a partial upload or an older release would.
 */
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CacheEntry, CacheStore } from '../../lib/cache/index.ts';
import { joined } from '../../lib/text/pieces.ts';

export interface StoreUnderTest {
  store: CacheStore;
  /** The stored bytes of an entry, or undefined when absent. */
  readRaw(key: string): Promise<Buffer | undefined>;
  writeRaw(key: string, bytes: Buffer): Promise<void>;
}

/** A key no earlier run can have written. */
export const freshKey = (): string => randomBytes(32).toString('hex');

export const sampleEntry = (body = JSON.stringify({ status: 'success', data: { title: 'Ünïcödé ✓ "quoted"' } })): CacheEntry => ({
  answer: {
    statusCode: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-fetch-mode': 'fetch' },
    body,
  },
  createdAt: 1_700_000_000_123,
  ttl: 86_400_000,
});

/** `actual` is `expected`, its body the same text whether it comes whole or in pieces (lib/text/pieces.ts). */
export function assertSameEntry(actual: CacheEntry | undefined, expected: CacheEntry): void {
  assert.ok(actual, 'an entry');
  assert.deepEqual({ ...actual, answer: { ...actual.answer, body: joined(actual.answer.body) } }, expected);
}

export function cacheStoreContract(name: string, make: () => StoreUnderTest | Promise<StoreUnderTest>): void {
  describe(`CacheStore contract: ${name}`, () => {
    test('a body of many pieces reads back identical, surrogate pairs across the pieces\' bounds included', async () => {
      const { store } = await make();
      const key = freshKey();
      // Pairs at odd offsets: a cut every 64 Ki characters would fall between the halves of one.
      const entry = sampleEntry(`"a${'😀é'.repeat(70_000)}"`);
      await store.set(key, entry);
      const got = await store.get(key);
      assertSameEntry(got, entry);
      const pieces = typeof got!.answer.body === 'string' ? [got!.answer.body] : got!.answer.body;
      assert.ok(pieces.every((piece) => Buffer.from(piece).toString() === piece), 'each piece stands alone: no pair cut');
    });

    test('a body that starts with U+FEFF keeps it (it is text, not a byte order mark)', async () => {
      const { store } = await make();
      const key = freshKey();
      const entry = sampleEntry('\ufeffstarts with a zero-width no-break space');
      await store.set(key, entry);
      assertSameEntry(await store.get(key), entry);
    });

    test('set then get answers the identical entry', async () => {
      const { store } = await make();
      const key = freshKey();
      const entry = sampleEntry();
      await store.set(key, entry);
      assert.deepEqual(await store.get(key), entry);
    });

    test('a body with line breaks (an embedded Markdown field) round-trips whole', async () => {
      const { store } = await make();
      const key = freshKey();
      const entry = sampleEntry('# Title\n\nA line.\r\n{"v":2}\n');
      await store.set(key, entry);
      assert.deepEqual(await store.get(key), entry);
    });

    test('an embed redirect (302, empty body) round-trips with its headers', async () => {
      const { store } = await make();
      const key = freshKey();
      const entry: CacheEntry = {
        answer: { statusCode: 302, headers: { location: 'https://cdn.example/a.png' }, body: '' },
        createdAt: 5,
        ttl: 60_000,
      };
      await store.set(key, entry);
      assert.deepEqual(await store.get(key), entry);
    });

    test("embed.proxy's media (base64 bytes) round-trips as bytes, not text", async () => {
      const { store } = await make();
      const key = freshKey();
      const entry: CacheEntry = {
        answer: { statusCode: 200, headers: { 'content-type': 'image/png' }, body: randomBytes(4096).toString('base64'), isBase64Encoded: true },
        createdAt: 5,
        ttl: 60_000,
      };
      await store.set(key, entry);
      assert.deepEqual(await store.get(key), entry);
      const text = sampleEntry();
      await store.set(key, text);
      assert.equal((await store.get(key))?.answer.isBase64Encoded, undefined, 'a text answer stays text');
    });

    test('a large body round-trips intact', async () => {
      const { store } = await make();
      const key = freshKey();
      const entry = sampleEntry(JSON.stringify({ html: randomBytes(1024 * 1024).toString('base64') }));
      await store.set(key, entry);
      assertSameEntry(await store.get(key), entry);
    });

    test('a missing key answers undefined', async () => {
      const { store } = await make();
      assert.equal(await store.get(freshKey()), undefined);
    });

    test('a second set replaces the entry, and another instance reads the new one', async () => {
      const { store } = await make();
      const key = freshKey();
      await store.set(key, sampleEntry('{"v":"old"}'));
      const newer = { ...sampleEntry('{"v":"new"}'), createdAt: 1_800_000_000_000 };
      await store.set(key, newer);
      assert.deepEqual(await store.get(key), newer);
      assert.deepEqual(await (await make()).store.get(key), newer);
    });

    test('keys that are not cache keys answer undefined and are refused by set', async () => {
      const { store } = await make();
      for (const bad of ['../x', `../${freshKey()}`, freshKey().toUpperCase(), `${freshKey()}/`, '', 'a/b']) {
        assert.equal(await store.get(bad), undefined, JSON.stringify(bad));
        await assert.rejects(store.set(bad, sampleEntry()), JSON.stringify(bad));
      }
    });

    describe('a damaged entry reads as a miss, never as an answer and never as an error', () => {
      const damage = async (change: (raw: string) => string | Buffer) => {
        const under = await make();
        const key = freshKey();
        await under.store.set(key, sampleEntry());
        const raw = await under.readRaw(key);
        assert.ok(raw, 'the entry was written where the test looks for it');
        const changed = change(raw.toString('utf8'));
        await under.writeRaw(key, Buffer.isBuffer(changed) ? changed : Buffer.from(changed));
        return under.store.get(key);
      };
      // An entry is a line of JSON, then the body (lib/cache/entry.ts); `fn` edits both as one object.
      const edit = (fn: (stored: Record<string, unknown>) => void) => (raw: string) => {
        const end = raw.indexOf('\n');
        const stored = { ...(JSON.parse(raw.slice(0, end)) as Record<string, unknown>), body: raw.slice(end + 1) };
        fn(stored);
        const { body, ...head } = stored;
        return `${JSON.stringify(head)}\n${String(body)}`;
      };

      test('garbage bytes', async () => {
        assert.equal(await damage(() => randomBytes(300)), undefined);
      });
      test('an empty file or object', async () => {
        assert.equal(await damage(() => ''), undefined);
      });
      test('an unchanged entry reads back (the edits below change only what they name)', async () => {
        assert.deepEqual(await damage(edit(() => undefined)), sampleEntry());
      });
      test('truncated JSON', async () => {
        assert.equal(await damage((raw) => raw.slice(0, Math.floor(raw.length / 2))), undefined);
      });
      test('a body that no longer matches its checksum', async () => {
        assert.equal(await damage(edit((stored) => void (stored.body = '{"status":"success","data":{}}'))), undefined);
      });
      test('a checksum that no longer matches its body', async () => {
        assert.equal(await damage(edit((stored) => void (stored.sha256 = '0'.repeat(64)))), undefined);
      });
      test('another format version', async () => {
        // Version 1 held the body as a JSON string in the object.
        assert.equal(await damage((raw) => JSON.stringify({ ...JSON.parse(raw.slice(0, raw.indexOf('\n'))), v: 1, body: raw.slice(raw.indexOf('\n') + 1) })), undefined);
        assert.equal(await damage(edit((stored) => void (stored.v = 3))), undefined);
      });
      test('fields of the wrong type', async () => {
        for (const [field, value] of [
          ['statusCode', '200'],
          ['statusCode', 42],
          ['headers', { a: 1 }],
          ['headers', null],
          ['ttl', 0],
          ['createdAt', 'yesterday'],
        ] as const) {
          assert.equal(await damage(edit((stored) => void (stored[field] = value))), undefined, `${field}: ${JSON.stringify(value)}`);
        }
      });
      test('valid JSON that is not an object', async () => {
        for (const text of ['null', '[]', '"text"', '1']) assert.equal(await damage(() => text), undefined, text);
      });
    });
  });
}
