/** What the two S3 homes (stored assets, cached answers) share: the client and the translation of its errors. */
import type { S3Client } from '@aws-sdk/client-s3';
import type { StorageSettings } from '../config.ts';
import { GlanceError } from '../errors.ts';

export type S3Settings = Extract<StorageSettings, { kind: 's3' }>;

interface ServiceError {
  name?: string;
  /** Node's network errors (`ECONNREFUSED`) carry the reason here and `Error` as the name. */
  code?: unknown;
}

export type S3Sdk = typeof import('@aws-sdk/client-s3');

/** A store's client with the SDK's command classes, once the SDK is loaded. */
export interface S3 {
  readonly client: S3Client;
  readonly sdk: S3Sdk;
}

let sdk: Promise<S3Sdk> | undefined;

/**
 * The S3 SDK (client-s3 with its share of the SDK's core, about a sixth of the Lambda bundle) is a chunk of its own,
 * loaded once an S3 store is made: a process storing in folders never compiles it. The Lambda handler, which stores
 * in S3, waits for it during init (functions/api.ts), so its first request does not.
 */
export const loadS3Sdk = (): Promise<S3Sdk> => (sdk ??= import('@aws-sdk/client-s3'));

/**
 * The client, once the SDK is loaded (its loading starts now, not within a request's budget). Without
 * `throwOnRequestTimeout` the SDK only logs a warning on a silent socket and keeps waiting, so a call without a budget
 * signal could outlive the Lambda invocation.
 */
export function createS3Client(settings: S3Settings, timeouts: { connectionTimeout: number; requestTimeout: number }): () => Promise<S3> {
  const made = loadS3Sdk().then((loaded) => ({
    sdk: loaded,
    client: new loaded.S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      // One retry at most: the SDK's default three attempts, each with its own timeouts, outlive a request's budget.
      maxAttempts: 2,
      requestHandler: { ...timeouts, throwOnRequestTimeout: true },
    }),
  }));
  // A failed load is each call's to report (EFATAL), not an unhandled rejection before the first call.
  made.catch(() => undefined);
  return () => made;
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
