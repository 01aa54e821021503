/**
 * Cached answers in a local folder, one file per key, for the single-machine service. An entry past its own
 * `ttl` or past the retention is never answered, and its file is deleted by the sweep (storage/sweep.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GlanceError } from '../errors.ts';
import { createSweeper, isTemporary } from '../storage/sweep.ts';
import { decodeEntry, encodeEntry, entryName, isCacheKey } from './entry.ts';
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
  readonly now?: () => number;
}

export function createLocalCacheStore(dir: string, { retention, now = Date.now }: LocalCacheOptions): CacheStore {
  const sweeper = createSweeper(dir, { retention, now, owns: (name) => ENTRY.test(name) || isTemporary(name) });
  return {
    sweep: () => sweeper.sweep(),

    async get(key) {
      if (!isCacheKey(key)) return undefined;
      let bytes: Buffer;
      try {
        bytes = await readFile(join(dir, entryName(key)));
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return undefined;
        throw fatal('read', error);
      }
      const entry = await decodeEntry(bytes);
      if (!entry || now() - entry.createdAt >= Math.min(entry.ttl, retention)) return undefined;
      return entry;
    },

    async set(key, entry) {
      if (!isCacheKey(key)) throw new GlanceError('EFATAL', 'Refused to cache an answer under a malformed key.');
      // Written aside, then renamed over the entry: rename is atomic, so a reader sees the old or the new entry,
      // never half of one. The leading dot and .tmp suffix keep it from ever being read as an entry.
      const temporary = join(dir, `.${key}.${randomUUID()}.tmp`);
      try {
        await mkdir(dir, { recursive: true });
        // A piece at a time: each written with its own call, the event loop free between them.
        await writeFile(temporary, await encodeEntry(entry), { flag: 'wx' });
        await rename(temporary, join(dir, entryName(key)));
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw fatal('store', error);
      }
    },
  };
}
