/** Storage in an S3 bucket (deployed behind CloudFront, which answers `${cdnUrl}/${key}`). */
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { StorageSettings } from '../config.ts';
import { GlanceError } from '../errors.ts';
import type { Storage } from './index.ts';
import { ASSET_CACHE_CONTROL, contentKey, contentTypeOf, isStorageKey, outOfTime } from './keys.ts';

type S3Settings = Extract<StorageSettings, { kind: 's3' }>;

interface ServiceError {
  name?: string;
  /** Node's network errors (`ECONNREFUSED`) carry the reason here and `Error` as the name. */
  code?: unknown;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown): number | undefined => (error as ServiceError | undefined)?.$metadata?.httpStatusCode;

/**
 * Only the error's code or name (`AccessDenied`, `NoSuchBucket`, `ECONNREFUSED`) reaches the message: SDK messages can
 * carry request details, and the payload must never show credentials or a stack. The original stays as `cause`.
 */
function fatal(action: string, error: unknown): GlanceError {
  const { code, name } = (error ?? {}) as ServiceError;
  const reason = [code, name].find((value): value is string => typeof value === 'string' && /^\w{1,64}$/.test(value));
  return new GlanceError('EFATAL', `Could not ${action} the asset in S3 (${reason ?? 'error'}).`, { cause: error });
}

export function createS3Storage(settings: S3Settings, cdnUrl: string): Storage {
  const { bucket } = settings;
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    // Without these the SDK waits forever on a silent socket (requestTimeout alone only logs a warning), so a put
    // without a budget signal could outlive the Lambda invocation.
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
  });

  async function exists(key: string, abortSignal: AbortSignal | undefined): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal });
      return true;
    } catch (error) {
      // HEAD answers have no body, so a missing key is only a 404; a missing bucket then fails the PUT.
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  return {
    async put(body, type, abortSignal) {
      const { key, contentType } = contentKey(body, type);
      try {
        abortSignal?.throwIfAborted();
        if (!(await exists(key, abortSignal))) {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: body,
              ContentType: contentType,
              CacheControl: ASSET_CACHE_CONTROL,
            }),
            { abortSignal },
          );
        }
      } catch (error) {
        throw abortSignal?.aborted ? outOfTime(error) : fatal('store', error);
      }
      return { key, url: `${cdnUrl}/${key}`, size: body.length, contentType };
    },

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const bytes = await object.Body?.transformToByteArray();
        return {
          body: Buffer.from(bytes ?? []),
          contentType: object.ContentType ?? contentTypeOf(key),
          cacheControl: object.CacheControl ?? ASSET_CACHE_CONTROL,
        };
      } catch (error) {
        // Only a missing key is "absent"; NoSuchBucket is also a 404 but means the deployment is broken.
        if ((error as ServiceError | undefined)?.name === 'NoSuchKey') return undefined;
        throw fatal('read', error);
      }
    },
  };
}
