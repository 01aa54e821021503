/**
 * Cached answers in a local folder, one file per key, for the single-machine service. An entry past its own `ttl`
 * is never answered: its file is deleted when a read meets it, or by the next trim (storage/disk-budget.ts), which
 * also keeps the folder under `maxBytes`, least recently used first; one past the retention, by the sweep
 * (storage/sweep.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GlanceError } from '../errors.ts';
import { DEFAULT_CACHE_MAX_BYTES } from '../config.ts';
import { createDiskBudget } from '../storage/disk-budget.ts';
import { createSweeper, isTemporary } from '../storage/sweep.ts';
import { decodeEntry, encodeEntry, entryName, expiryOfHead, HEAD_BYTES, isCacheKey } from './entry.ts';
import type { CacheStore } from './index.ts';

const ENTRY = /^[0-9a-f]{64}\.json$/;

const codeOf = (error: unknown): unknown => (error as NodeJS.ErrnoException | undefined)?.code;

/** The message names the errno code only: the path would show the server's layout. */
const fatal = (action: string, error: unknown): GlanceError =>
  new GlanceError('EFATAL', `Could not ${action} a cached answer on disk (${String(codeOf(error) ?? 'error')}).`, {
    cause: error,
  });

export interface LocalCacheOptions {
  /** ms after it was written an entry is dropped, whatever its ttl. */
  readonly retention: number;
  /** Bytes past which the least recently used entries are deleted; GLANCE_CACHE_MAX_BYTES's default when absent. */
  readonly maxBytes?: number;
  readonly now?: () => number;
}

/** When the entry at `path` expires, from its head line; undefined when it cannot be read as an entry. */
async function expiryOf(path: string): Promise<number | undefined> {
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(HEAD_BYTES) });
    return expiryOfHead(buffer.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

export function createLocalCacheStore(dir: string, { retention, maxBytes = DEFAULT_CACHE_MAX_BYTES, now = Date.now }: LocalCacheOptions): CacheStore {
  const sweeper = createSweeper(dir, { retention, now, owns: (name) => ENTRY.test(name) || isTemporary(name) });
  const budget = createDiskBudget(dir, { maxBytes, now, owns: (name) => ENTRY.test(name), expiryOf });
  return {
    sweep: async () => (await sweeper.sweep()) + (await budget.trim()),

    async get(key) {
      if (!isCacheKey(key)) return undefined;
      const name = entryName(key);
      const readAt = Date.now();
      let bytes: Buffer;
      try {
        bytes = await readFile(join(dir, name));
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return undefined;
        throw fatal('read', error);
      }
      const entry = await decodeEntry(bytes);
      if (entry && now() - entry.createdAt < Math.min(entry.ttl, retention)) {
        budget.used(name);
        return entry;
      }
      // Expired or unreadable: nothing will ever answer it, so it goes now (unless a set rewrote it meanwhile).
      await budget.remove(name, readAt);
      return undefined;
    },

    async set(key, entry) {
      if (!isCacheKey(key)) throw new GlanceError('EFATAL', 'Refused to cache an answer under a malformed key.');
      // Written aside, then renamed over the entry: rename is atomic, so a reader sees the old or the new entry,
      // never half of one. The leading dot and .tmp suffix keep it from ever being read as an entry.
      const temporary = join(dir, `.${key}.${randomUUID()}.tmp`);
      try {
        await mkdir(dir, { recursive: true });
        // A piece at a time: each written with its own call, the event loop free between them.
        const pieces = await encodeEntry(entry);
        await writeFile(temporary, pieces, { flag: 'wx' });
        await rename(temporary, join(dir, entryName(key)));
        budget.wrote(entryName(key), pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece), 0), entry.createdAt + entry.ttl);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw fatal('store', error);
      }
    },
  };
}
