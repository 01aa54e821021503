/**
 * Where rendered screenshots and PDFs live, and the public address each one answers at (`${cdnUrl}/${key}`).
 * Deployed: an S3 bucket behind CloudFront. On one machine: a folder the local service serves (serve.ts). Which
 * one: lib/stores.ts, where the application is wired.
 */
export { ASSET_CACHE_CONTROL, isStorageKey } from './keys.ts';

export interface StoredObject {
  key: string;
  url: string;
  size: number;
  contentType: string;
}

export interface StoredBody {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  /** `inline; filename="…"` for an asset stored with a caller's `filename`; absent otherwise. */
  contentDisposition?: string;
}

export interface Storage {
  /** Stores bytes under a content-addressed key `${sha256hex}.${ext}` (ext from the content type: png, jpg, pdf,
   *  webp), or `${sha256hex}/${name}.${ext}` with `name` (a safe file name, lib/storage/filename.ts), served with
   *  its `Content-Disposition`. Idempotent: the same bytes (and name) give the same key; a second put of existing
   *  bytes skips the upload. `signal` (from the request's Budget) abandons the upload with ETIMEOUT when the
   *  request runs out of time. */
  put(body: Buffer, contentType: string, signal?: AbortSignal, name?: string): Promise<StoredObject>;
  /** Reads an object back (the local service serves these). undefined when absent or not a storage key. */
  get(key: string): Promise<StoredBody | undefined>;
  /** Deletes what is past the retention, and the least recently used past the size bound, a bounded part per call
   *  (local folders; a bucket's lifecycle rule does this deployed). Resolves with the number of objects deleted. */
  sweep?(): Promise<number>;
}
