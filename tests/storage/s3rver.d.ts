// s3rver ships no types; this declares the part the storage tests use.
declare module 's3rver' {
  import type { EventEmitter } from 'node:events';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }

  /** The S3 notification S3rver emits as 'event' for each created or removed object. */
  export interface S3Event {
    Records: { eventName: string; s3: { object: { key: string } } }[];
  }

  export default class S3rver extends EventEmitter {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
