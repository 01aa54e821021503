/**
 * The S3 implementation against S3rver, a real S3-protocol server on 127.0.0.1 keeping objects in a temporary
 * folder. Static dummy credentials (S3rver's own) and no metadata service: nothing here can reach AWS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 's3rver';
import type { StorageSettings } from '../../lib/config.ts';
import { isGlanceError } from '../../lib/errors.ts';
import { ASSET_CACHE_CONTROL } from '../../lib/storage/index.ts';
import { createStorage } from '../../lib/stores.ts';
import { offlineAws, startS3, type LocalS3 } from '../helpers/s3.ts';
import { CDN_URL, storageContract } from '../storage/contract.ts';

offlineAws();

const BUCKET = 'glance-assets';

let s3: LocalS3;
let endpoint: string;
/** Keys written by an upload, and by a copy (in place: no bytes sent). */
const uploaded: string[] = [];
const copied: string[] = [];

before(async () => {
  s3 = await startS3(BUCKET);
  endpoint = s3.endpoint;
  s3.server.on('event', (event: S3Event) => {
    for (const record of event.Records) {
      if (record.eventName === 'ObjectCreated:Put') uploaded.push(record.s3.object.key);
      if (record.eventName === 'ObjectCreated:Copy') copied.push(record.s3.object.key);
    }
  });
});

after(() => s3.close());

const settings = (overrides: Partial<Extract<StorageSettings, { kind: 's3' }>> = {}): StorageSettings => ({
  kind: 's3',
  bucket: BUCKET,
  region: 'us-east-1',
  endpoint,
  forcePathStyle: true,
  ...overrides,
});

storageContract('s3', (cdnUrl) => createStorage(settings(), cdnUrl));

/** A port nobody listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const isFatal = (error: unknown): boolean => {
  assert.ok(isGlanceError(error), 'a GlanceError');
  assert.equal(error.code, 'EFATAL');
  assert.ok(error.cause instanceof Error, 'the S3 error is kept as cause');
  assert.ok(!error.message.includes('S3RVER'), 'no credentials in the message');
  assert.ok(!error.message.includes('\n    at '), 'no stack in the message');
  return true;
};

describe('S3 storage', () => {
  test('the object in the bucket carries its content type and the immutable cache policy', async () => {
    const body = randomBytes(2048);
    const { key } = await createStorage(settings(), CDN_URL).put(body, 'image/jpeg');
    const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
    const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    assert.equal(object.ContentType, 'image/jpeg');
    assert.equal(object.CacheControl, ASSET_CACHE_CONTROL);
    assert.ok(Buffer.from(await object.Body!.transformToByteArray()).equals(body));
    client.destroy();
  });

  test('a second put of existing bytes does not upload again, but starts its retention over', async () => {
    const storage = createStorage(settings(), CDN_URL);
    const body = randomBytes(2048);
    const key = `${createHash('sha256').update(body).digest('hex')}.png`;
    await storage.put(body, 'image/png');
    await storage.put(body, 'image/png');
    await createStorage(settings(), CDN_URL).put(body, 'image/png');
    assert.deepEqual(
      uploaded.filter((name) => name === key),
      [key],
    );
    // A copy onto itself creates the object anew, and S3's lifecycle expiration counts from object creation
    // (S3rver keeps the old LastModified on such a copy, so the copy itself is what is checked here).
    assert.deepEqual(
      copied.filter((name) => name === key),
      [key, key],
    );
    const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
    const again = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    assert.equal(again.ContentType, 'image/png');
    assert.equal(again.CacheControl, ASSET_CACHE_CONTROL);
    assert.ok((await storage.get(key))?.body.equals(body));
    client.destroy();
  });

  test('a named object carries its Content-Disposition in the bucket (what CloudFront answers), also after a renewing copy', async () => {
    const storage = createStorage(settings(), CDN_URL);
    const body = randomBytes(2048);
    const { key } = await storage.put(body, 'application/pdf', undefined, 'Facture été');
    assert.equal(key, `${createHash('sha256').update(body).digest('hex')}/Facture été.pdf`);
    const expected = `inline; filename="Facture ete.pdf"; filename*=UTF-8''Facture%20%C3%A9t%C3%A9.pdf`;
    const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
    assert.equal((await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ContentDisposition, expected);
    await storage.put(body, 'application/pdf', undefined, 'Facture été');
    assert.ok(copied.includes(key), 'the second put copies in place');
    const again = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    assert.equal(again.ContentDisposition, expected, 'a copy replacing the metadata keeps it');
    assert.equal(again.ContentType, 'application/pdf');
    client.destroy();
  });

  test('a missing bucket fails put and get as EFATAL, not as an absent object', async () => {
    const storage = createStorage(settings({ bucket: 'no-such-bucket' }), CDN_URL);
    await assert.rejects(storage.put(randomBytes(16), 'image/png'), isFatal);
    await assert.rejects(storage.get(`${'0'.repeat(64)}.png`), isFatal);
  });

  test('an endpoint that never answers is abandoned when the signal fires, as ETIMEOUT', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const storage = createStorage(settings({ endpoint: `http://127.0.0.1:${port}` }), CDN_URL);
    const started = Date.now();
    try {
      await assert.rejects(storage.put(randomBytes(16), 'image/png', AbortSignal.timeout(200)), (error) => {
        assert.ok(isGlanceError(error));
        assert.equal(error.code, 'ETIMEOUT');
        return true;
      });
      assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('an unreachable endpoint fails as EFATAL', async () => {
    const storage = createStorage(settings({ endpoint: `http://127.0.0.1:${await closedPort()}` }), CDN_URL);
    await assert.rejects(storage.put(randomBytes(16), 'image/png'), isFatal);
  });
});
