/** Cached answers in a private S3 bucket, one object per key under `results/`. */
import { GlanceError } from '../errors.ts';
import { S3_CACHE_TIMEOUTS } from '../time/limits.ts';
import { createS3Client, isNoSuchKey, s3Failure, type S3Settings } from './s3-client.ts';
import { decodeEntry, encodeEntry, entryName, isCacheKey } from '../cache/entry.ts';
import type { CacheStore } from '../cache/index.ts';

/** Where entries live in the bucket; a bucket lifecycle rule may expire this prefix after the longest ttl. */
export const S3_PREFIX = 'results/';

const fatal = (action: string, error: unknown) => s3Failure(`${action} a cached answer`, error);

export function createS3CacheStore(settings: S3Settings): CacheStore {
  const { bucket } = settings;
  // A cache read sits in front of every request: a slow bucket must turn into a miss quickly, not a hung
  // request (without throwOnRequestTimeout the SDK only logs a warning and keeps waiting).
  const s3 = createS3Client(settings, S3_CACHE_TIMEOUTS);
  const objectKey = (key: string) => `${S3_PREFIX}${entryName(key)}`;

  return {
    async get(key) {
      if (!isCacheKey(key)) return undefined;
      let bytes: Uint8Array | undefined;
      try {
        const { client, sdk } = await s3();
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        bytes = await object.Body?.transformToByteArray();
      } catch (error) {
        // Only a missing key is a miss; NoSuchBucket is also a 404 but means the deployment is broken.
        if (isNoSuchKey(error)) return undefined;
        throw fatal('read', error);
      }
      return bytes === undefined ? undefined : decodeEntry(bytes);
    },

    async set(key, entry) {
      if (!isCacheKey(key)) throw new GlanceError('EFATAL', 'Refused to cache an answer under a malformed key.');
      try {
        // A PUT replaces the whole object at once: readers see the old or the new entry, never a mix.
        const { client, sdk } = await s3();
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: objectKey(key),
            // One body, joined: in Lambda the copy is the request's own invocation's; a local service that keeps its
            // cache in S3 pays it on its event loop (35–70 ms for 10 MB), which the local store's piecewise write avoids.
            Body: (await encodeEntry(entry)).join(''),
            // A line of JSON, then the answer's body (lib/cache/entry.ts).
            ContentType: 'text/plain; charset=utf-8',
          }),
        );
      } catch (error) {
        throw fatal('store', error);
      }
    },
  };
}
