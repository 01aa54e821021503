/**
 * Storage in a local folder, for the single-machine service; the service itself serves the files (serve.ts).
 * Files are deleted `retention` after their last put (sweep.ts); a put of bytes already stored touches the file,
 * so an asset outlives every answer that names it (answers live at most `ttl`, at most the retention). Past
 * `maxBytes`, the least recently put or read go first (disk-budget.ts): an answer may then name an asset gone.
 * Like the content type, the `Content-Disposition` of a named key is read from the key itself (keys.ts), so the
 * folder holds bytes only; a named key's file is `<sha256>.<sha256 of the name, 32 hex>.<ext>`, flat (one folder
 * to sweep, and a file name of fixed length whatever the caller's name) and never found under any other name.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GlanceError } from '../errors.ts';
import type { Storage } from './index.ts';
import { ASSET_CACHE_CONTROL, contentDispositionOf, contentTypeOf, hashOf, isStorageKey, putContent } from './keys.ts';
import { createDiskBudget } from './disk-budget.ts';
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
async function writeAtomically(dir: string, file: string, body: Buffer, signal?: AbortSignal): Promise<void> {
  // A leading dot and the .tmp suffix keep the temporary file from ever matching isStorageKey.
  const temporary = join(dir, `.${file}.${randomUUID()}.tmp`);
  try {
    await writeFile(temporary, body, { flag: 'wx', signal });
    await rename(temporary, join(dir, file));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

const NAMED_FILE = /^[0-9a-f]{64}\.[0-9a-f]{32}\.[a-z]+$/;

/** The file a valid key is kept in. */
function fileOf(key: string): string {
  const slash = key.indexOf('/');
  if (slash < 0) return key;
  const name = key.slice(slash + 1, key.lastIndexOf('.'));
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 32);
  return `${hashOf(key)}.${digest}${key.slice(key.lastIndexOf('.'))}`;
}

export interface LocalStorageOptions {
  /** ms after its last put a file is deleted. */
  readonly retention: number;
  /** Bytes past which the least recently used files are deleted. */
  readonly maxBytes: number;
}

export function createLocalStorage(dir: string, cdnUrl: string, { retention, maxBytes }: LocalStorageOptions): Storage {
  const stored = (name: string) => isStorageKey(name) || NAMED_FILE.test(name);
  const sweeper = createSweeper(dir, { retention, owns: (name) => stored(name) || isTemporary(name) });
  const budget = createDiskBudget(dir, { maxBytes, owns: stored });
  return {
    sweep: async () => (await sweeper.sweep()) + (await budget.trim()),
    put: (body, type, signal, name) =>
      putContent(
        { body, type, name, cdnUrl, signal },
        async ({ key }) => {
          const file = fileOf(key);
          if (await touch(join(dir, file))) return budget.used(file);
          await mkdir(dir, { recursive: true });
          await writeAtomically(dir, file, body, signal);
          budget.wrote(file, body.length);
        },
        (error) => fatal('store', error),
      ),

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const file = fileOf(key);
        const body = await readFile(join(dir, file));
        budget.used(file);
        return { body, contentType: contentTypeOf(key), cacheControl: ASSET_CACHE_CONTROL, contentDisposition: contentDispositionOf(key) };
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return undefined;
        throw fatal('read', error);
      }
    },
  };
}
