/**
 * S3 in tests: S3rver, a real S3-protocol server on 127.0.0.1 keeping objects in a temporary folder, and an
 * environment in which the SDK cannot reach AWS (static dummy credentials, no metadata service).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

export async function startS3(...buckets: string[]): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), 'glance-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
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
