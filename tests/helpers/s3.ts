/**
 * S3 in tests: S3rver, a real S3-protocol server on 127.0.0.1 keeping objects in a temporary folder, and an
 * environment in which the SDK cannot reach AWS (static dummy credentials, no metadata service).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import S3rver from 's3rver';

/** The SDK resolves credentials lazily, at the first request, so calling this at a test file's top is early enough. */
export function offlineAws(): void {
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
}

export interface LocalS3 {
  readonly endpoint: string;
  readonly server: S3rver;
  close(): Promise<void>;
}

/** The part of S3rver's filesystem store (lib/stores/filesystem.js) a PUT goes through. */
interface ObjectStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; metadata: unknown; content: Buffer | Readable }): Promise<{ size: number; md5: string }>;
}

/**
 * S3rver 3.7.1 answers a PUT once the body has gone through its MD5 count, before its file is written out: a GET
 * right after could read part of the object (the cache contract's large body did, once, on a loaded machine). Its
 * store's put is the same steps here, done when the file is.
 */
function putsWhenWritten(store: ObjectStore): void {
  store.putObject = async ({ bucket, key, metadata, content }) => {
    const path = store.getResourcePath(bucket, key, 'object');
    await mkdir(dirname(path), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const counted = async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        md5.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    };
    await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, counted, createWriteStream(path));
    const digest = md5.digest('hex');
    await store.putMetadata(bucket, key, metadata, digest);
    return { size, md5: digest };
  };
}

export async function startS3(...buckets: string[]): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), 'glance-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  putsWhenWritten((server as unknown as { store: ObjectStore }).store);
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    server,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
