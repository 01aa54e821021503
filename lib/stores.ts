/**
 * Which stores this deployment keeps its captures and answers in, as the configuration names them: S3 buckets when
 * deployed, local folders on one machine. Chosen here, where the application is wired, so the interfaces
 * (lib/storage, lib/cache) never import the implementations that implement them (lib/aws).
 */
import { createS3CacheStore } from './aws/s3-cache.ts';
import { createS3Storage } from './aws/s3-storage.ts';
import type { CacheStore } from './cache/index.ts';
import { createLocalCacheStore } from './cache/local.ts';
import { withMemory } from './cache/memory.ts';
import type { CacheSettings, StorageSettings } from './config.ts';
import type { Storage } from './storage/index.ts';
import { createLocalStorage } from './storage/local.ts';

export function createStorage(settings: StorageSettings, cdnUrl: string): Storage {
  return settings.kind === 's3' ? createS3Storage(settings, cdnUrl) : createLocalStorage(settings.dir, cdnUrl, settings);
}

/** undefined when caching is off. Either home is fronted by a small in-memory layer for hot entries. */
export function createCacheStore(settings: CacheSettings): CacheStore | undefined {
  switch (settings.kind) {
    case 'off':
      return undefined;
    case 'local':
      return withMemory(createLocalCacheStore(settings.dir, settings));
    case 's3':
      return withMemory(createS3CacheStore(settings));
  }
}
