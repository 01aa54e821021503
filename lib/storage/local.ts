/**
 * Storage in a local folder, for the single-machine service; the service itself serves the files (serve.ts).
 * Files are deleted `retention` after their last put (sweep.ts); a put of bytes already stored touches the file,
 * so an asset outlives every answer that names it (answers live at most `ttl`, at most the retention).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GlanceError } from '../errors.ts';
import type { Storage } from './index.ts';
import { ASSET_CACHE_CONTROL, contentTypeOf, isStorageKey, putContent } from './keys.ts';
import { createSweeper, isTemporary } from './sweep.ts';

const codeOf = (error: unknown): unknown => (error as NodeJS.ErrnoException | undefined)?.code;

/** The message names the errno code only: the path would show the server's layout to callers. */
const fatal = (action: string, error: unknown): GlanceError =>
  new GlanceError('EFATAL', `Could not ${action} the asset in local storage (${String(codeOf(error) ?? 'error')}).`, {
    cause: error,
  });

/** Marks an existing file as written now (its retention starts over); false when there is none. */
async function touch(path: string): Promise<boolean> {
  try {
    const now = new Date();
    await utimes(path, now, now);
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw error;
  }
}

/** Writes to a temporary name, then renames: rename is atomic, so a reader sees no file or the whole file. */
async function writeAtomically(dir: string, key: string, body: Buffer, signal?: AbortSignal): Promise<void> {
  // A leading dot and the .tmp suffix keep the temporary file from ever matching isStorageKey.
  const temporary = join(dir, `.${key}.${randomUUID()}.tmp`);
  try {
    await writeFile(temporary, body, { flag: 'wx', signal });
    await rename(temporary, join(dir, key));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

export function createLocalStorage(dir: string, cdnUrl: string, retention: number): Storage {
  const sweeper = createSweeper(dir, { retention, owns: (name) => isStorageKey(name) || isTemporary(name) });
  return {
    sweep: () => sweeper.sweep(),
    put: (body, type, signal) =>
      putContent(
        { body, type, cdnUrl, signal },
        async (key) => {
          if (await touch(join(dir, key))) return;
          await mkdir(dir, { recursive: true });
          await writeAtomically(dir, key, body, signal);
        },
        (error) => fatal('store', error),
      ),

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const body = await readFile(join(dir, key));
        return { body, contentType: contentTypeOf(key), cacheControl: ASSET_CACHE_CONTROL };
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return undefined;
        throw fatal('read', error);
      }
    },
  };
}
