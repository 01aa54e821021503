/**
 * A local folder bounded by size (issue 26): retention alone (sweep.ts) let a busy machine fill hundreds of GB before
 * the first deletion. The folder's files are known in memory, least recently used first (a Map keeps insertion order;
 * a write or a read re-inserts), with their sizes and, for cache entries, when they expire. Once a write takes the
 * folder past `maxBytes`, files are deleted from the least recently used end down to LOW_WATER of it, expired ones
 * first. Nothing holds the event loop: the folder is learned at first need through an async directory handle, a batch
 * of stats at a time, and deletions run a batch at a time (removeIf, which leaves a file rewritten meanwhile).
 * Across a restart, last use is known only by last write: files found at start rank by mtime.
 */
import type { Dir } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { removeIf } from './sweep.ts';

export interface DiskBudgetOptions {
  readonly maxBytes: number;
  /** Names this store writes (never its temporaries): only these are counted and deleted. */
  readonly owns: (name: string) => boolean;
  /** When a file found at start expires (a cache entry's own `ttl`); undefined when it does not by itself. */
  readonly expiryOf?: (path: string) => Promise<number | undefined>;
  readonly now?: () => number;
  /** Files stat'ed or deleted at once. */
  readonly batch?: number;
}

export interface DiskBudget {
  /** A file written (or rewritten) with `bytes`: now the most recently used; `expiresAt` for an entry that expires. */
  wrote(name: string, bytes: number, expiresAt?: number): void;
  /** A file read (or an asset's put of bytes already stored): now the most recently used. */
  used(name: string): void;
  /** Deletes `name` now (an expired entry met on a read), unless it was rewritten since `since` (epoch ms). */
  remove(name: string, since: number): Promise<boolean>;
  /** Deletes expired files, then the least recently used until the folder is under the bound. Concurrent calls
   *  share one; resolves with the number deleted. */
  trim(): Promise<number>;
  /** Bytes of the files known now. */
  bytes(): number;
}

/** A trim deletes down to this share of the bound, so the next writes do not each set one off. */
const LOW_WATER = 0.9;

interface Known {
  readonly bytes: number;
  readonly expiresAt: number | undefined;
}

const codeOf = (error: unknown): unknown => (error as NodeJS.ErrnoException | undefined)?.code;

export function createDiskBudget(dir: string, { maxBytes, owns, expiryOf, now = Date.now, batch = 32 }: DiskBudgetOptions): DiskBudget {
  let known = new Map<string, Known>();
  let total = 0;
  let learned: Promise<void> | undefined;
  let trimming: Promise<number> | undefined;

  const forget = (name: string) => {
    const file = known.get(name);
    if (!file) return;
    known.delete(name);
    total -= file.bytes;
  };
  const put = (name: string, file: Known) => {
    forget(name);
    known.set(name, file);
    total += file.bytes;
  };

  /** The files already there, oldest write first, ahead of those written since the start. */
  async function learn(): Promise<void> {
    let handle: Dir;
    try {
      handle = await opendir(dir, { bufferSize: batch });
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return;
      throw error;
    }
    const found: Array<[string, Known & { mtimeMs: number }]> = [];
    for (let names = await nextNames(handle, owns, batch); names.length > 0; names = await nextNames(handle, owns, batch)) {
      const stats = await Promise.all(names.map((name) => describe(name)));
      for (const [index, file] of stats.entries()) if (file) found.push([names[index]!, file]);
    }
    found.sort(([, a], [, b]) => a.mtimeMs - b.mtimeMs);
    const since = known;
    known = new Map();
    total = 0;
    for (const [name, { bytes, expiresAt }] of found) if (!since.has(name)) put(name, { bytes, expiresAt });
    for (const [name, file] of since) put(name, file);
  }

  async function describe(name: string): Promise<(Known & { mtimeMs: number }) | undefined> {
    const path = join(dir, name);
    try {
      const { size, mtimeMs } = await stat(path);
      return { bytes: size, mtimeMs, expiresAt: await expiryOf?.(path) };
    } catch {
      return undefined;
    }
  }

  /** Names to delete, expired first, then from the least recently used end until under the low water mark. */
  function doomed(): string[] {
    const at = now();
    const names = new Set<string>();
    let left = total;
    for (const [name, file] of known) {
      if (file.expiresAt === undefined || file.expiresAt > at) continue;
      names.add(name);
      left -= file.bytes;
    }
    if (left <= maxBytes) return [...names];
    for (const [name, file] of known) {
      if (left <= maxBytes * LOW_WATER) break;
      if (names.has(name)) continue;
      names.add(name);
      left -= file.bytes;
    }
    return [...names];
  }

  async function once(): Promise<number> {
    await (learned ??= learn().catch((error: unknown) => {
      learned = undefined;
      throw error;
    }));
    // A file written after this instant is not the one chosen: it stays (removeIf looks at its mtime again).
    const chosenAt = Date.now();
    const names = doomed();
    let deleted = 0;
    for (let at = 0; at < names.length; at += batch) {
      const slice = names.slice(at, at + batch);
      const gone = await Promise.all(slice.map((name) => removeIf(dir, name, (mtimeMs) => mtimeMs < chosenAt)));
      // One kept is either rewritten (and known again by its write) or already gone (the retention sweep's).
      for (const [index, name] of slice.entries()) if (gone[index] || !(await exists(join(dir, name)))) forget(name);
      deleted += gone.filter(Boolean).length;
    }
    return deleted;
  }

  const trim = (): Promise<number> => {
    trimming ??= once().finally(() => (trimming = undefined));
    return trimming;
  };

  return {
    wrote(name, bytes, expiresAt) {
      put(name, { bytes, expiresAt });
      // Beside the write, never on its path; a failure here is the periodic sweep's to report (its trim meets it too).
      if (total > maxBytes) void trim().catch(() => undefined);
    },
    used(name) {
      const file = known.get(name);
      if (file) put(name, file);
    },
    async remove(name, since) {
      const gone = await removeIf(dir, name, (mtimeMs) => mtimeMs < since);
      if (gone) forget(name);
      return gone;
    },
    trim,
    bytes: () => total,
  };
}

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, (error: unknown) => codeOf(error) !== 'ENOENT');

/** Up to `batch` owned file names from the directory handle; none once it is read through (and then closed). */
async function nextNames(handle: Dir, owns: (name: string) => boolean, batch: number): Promise<string[]> {
  const names: string[] = [];
  for (let entry = await handle.read(); entry; entry = names.length < batch ? await handle.read() : null) {
    if (entry.isFile() && owns(entry.name)) names.push(entry.name);
  }
  if (names.length === 0) await handle.close().catch(() => undefined);
  return names;
}
