/**
 * The S3 store against S3rver, a real S3-protocol server on 127.0.0.1. Static dummy credentials and no metadata
 * service: nothing here can reach AWS.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createS3CacheStore, S3_PREFIX } from '../../lib/aws/s3-cache.ts';
import type { CacheSettings } from '../../lib/config.ts';
import { isGlanceError } from '../../lib/errors.ts';
import { offlineAws, startS3, type LocalS3 } from '../helpers/s3.ts';
import { cacheStoreContract, freshKey, sampleEntry } from '../cache/contract.ts';

offlineAws();

const BUCKET = 'glance-cache';

let s3: LocalS3;
let endpoint: string;
let client: S3Client;

before(async () => {
  s3 = await startS3(BUCKET);
  endpoint = s3.endpoint;
  client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
});

after(async () => {
  client.destroy();
  await s3.close();
});

const settings = (bucket = BUCKET): Extract<CacheSettings, { kind: 's3' }> => ({ kind: 's3', bucket, region: 'us-east-1', endpoint, forcePathStyle: true });

const objectKey = (key: string) => `${S3_PREFIX}${key}.json`;

cacheStoreContract('s3', () => ({
  store: createS3CacheStore(settings()),
  async readRaw(key) {
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: objectKey(key) }));
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (error) {
      if ((error as Error).name === 'NoSuchKey') return undefined;
      throw error;
    }
  },
  async writeRaw(key, bytes) {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: objectKey(key), Body: bytes }));
  },
}));

describe('S3 cache store', () => {
  test('a missing bucket fails get and set as EFATAL (a broken deployment is not a miss)', async () => {
    const store = createS3CacheStore(settings('no-such-bucket'));
    const isFatal = (error: unknown) => {
      assert.ok(isGlanceError(error));
      assert.equal(error.code, 'EFATAL');
      assert.ok(!error.message.includes('S3RVER'), 'no credentials in the message');
      return true;
    };
    await assert.rejects(store.get(freshKey()), isFatal);
    await assert.rejects(store.set(freshKey(), sampleEntry()), isFatal);
  });

  test('an endpoint that accepts connections and never answers: a read gives up as EFATAL after one retry at most', { timeout: 20_000 }, async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const store = createS3CacheStore({ ...settings(), endpoint: `http://127.0.0.1:${port}` });
    const started = Date.now();
    try {
      await assert.rejects(store.get(freshKey()), (error) => {
        assert.ok(isGlanceError(error));
        assert.equal(error.code, 'EFATAL');
        return true;
      });
      const took = Date.now() - started;
      // Two attempts of the 3 s request timeout (lib/aws/s3-cache.ts), not the SDK's default three of no limit.
      assert.ok(took < 8_000, `gave up after ${took} ms`);
      assert.equal(sockets.length, 2, 'one attempt and one retry');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
