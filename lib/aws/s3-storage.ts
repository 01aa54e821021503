/**
 * Storage in an S3 bucket (deployed behind CloudFront, which answers `${cdnUrl}/${key}`). The bucket's lifecycle
 * rule deletes objects the retention after their creation (stacks/Glance.ts); a put of bytes already stored copies
 * the object onto itself, which creates it anew without uploading, so an asset outlives every answer naming it.
 */
import { createS3Client, isNoSuchKey, s3Failure, type S3Settings } from './s3-client.ts';
import type { Storage } from '../storage/index.ts';
import { S3_STORAGE_TIMEOUTS } from '../time/limits.ts';
import { ASSET_CACHE_CONTROL, contentDispositionOf, contentTypeOf, isStorageKey, putContent } from '../storage/keys.ts';

const statusOf = (error: unknown): number | undefined =>
  (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;

const fatal = (action: string, error: unknown) => s3Failure(`${action} the asset`, error);

export function createS3Storage(settings: S3Settings, cdnUrl: string): Storage {
  const { bucket } = settings;
  const s3 = createS3Client(settings, S3_STORAGE_TIMEOUTS);

  async function exists(key: string, abortSignal: AbortSignal | undefined): Promise<boolean> {
    const { client, sdk } = await s3();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal });
      return true;
    } catch (error) {
      // HEAD answers have no body, so a missing key is only a 404; a missing bucket then fails the PUT.
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  return {
    put: (body, type, abortSignal, name) =>
      putContent({ body, type, name, cdnUrl, signal: abortSignal }, async ({ key, contentType, contentDisposition }) => {
        const { client, sdk } = await s3();
        if (await exists(key, abortSignal)) {
          await client.send(
            new sdk.CopyObjectCommand({
              Bucket: bucket,
              Key: key,
              CopySource: `${bucket}/${key}`,
              // S3 refuses a copy onto itself that changes nothing; replacing the metadata (with the same) is a change.
              MetadataDirective: 'REPLACE',
              ContentType: contentType,
              CacheControl: ASSET_CACHE_CONTROL,
              ContentDisposition: contentDisposition,
            }),
            { abortSignal },
          );
        } else {
          await client.send(
            new sdk.PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: body,
              ContentType: contentType,
              CacheControl: ASSET_CACHE_CONTROL,
              // CloudFront answers it as stored: a download gets the caller's `filename`.
              ContentDisposition: contentDisposition,
            }),
            { abortSignal },
          );
        }
      }, (error) => fatal('store', error)),

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const { client, sdk } = await s3();
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        const bytes = await object.Body?.transformToByteArray();
        return {
          body: Buffer.from(bytes ?? []),
          contentType: object.ContentType ?? contentTypeOf(key),
          cacheControl: object.CacheControl ?? ASSET_CACHE_CONTROL,
          contentDisposition: object.ContentDisposition ?? contentDispositionOf(key),
        };
      } catch (error) {
        // Only a missing key is "absent"; NoSuchBucket is also a 404 but means the deployment is broken.
        if (isNoSuchKey(error)) return undefined;
        throw fatal('read', error);
      }
    },
  };
}
