/** What the two S3 homes (stored assets, cached answers) share: the client and the translation of its errors. */
import { S3Client } from '@aws-sdk/client-s3';
import type { StorageSettings } from '../config.ts';
import { GlanceError } from '../errors.ts';

export type S3Settings = Extract<StorageSettings, { kind: 's3' }>;

interface ServiceError {
  name?: string;
  /** Node's network errors (`ECONNREFUSED`) carry the reason here and `Error` as the name. */
  code?: unknown;
}

/**
 * Without `throwOnRequestTimeout` the SDK only logs a warning on a silent socket and keeps waiting, so a call
 * without a budget signal could outlive the Lambda invocation.
 */
export function createS3Client(settings: S3Settings, timeouts: { connectionTimeout: number; requestTimeout: number }): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    // One retry at most: the SDK's default three attempts, each with its own timeouts, outlive a request's budget.
    maxAttempts: 2,
    requestHandler: { ...timeouts, throwOnRequestTimeout: true },
  });
}

/**
 * Only the error's code or name (`AccessDenied`, `NoSuchBucket`, `ECONNREFUSED`) reaches the message: SDK messages
 * can carry request details, and the payload must never show credentials or a stack. The original stays as `cause`.
 */
export function s3Failure(action: string, error: unknown): GlanceError {
  const { code, name } = (error ?? {}) as ServiceError;
  const reason = [code, name].find((value): value is string => typeof value === 'string' && /^\w{1,64}$/.test(value));
  return new GlanceError('EFATAL', `Could not ${action} in S3 (${reason ?? 'error'}).`, { cause: error });
}

export const isNoSuchKey = (error: unknown): boolean => (error as ServiceError | undefined)?.name === 'NoSuchKey';
