/**
 * Retention for the local folders (issue 10 item 6): files older than the retention are deleted by a periodic
 * sweep, so .glance/assets and .glance/cache stay bounded on a long-running machine. Deployed, the buckets'
 * lifecycle rules do the same (stacks/Glance.ts). A sweep never holds the event loop: it reads the folder through
 * an async directory handle, stats and deletes a small batch at a time, and examines at most `perSweep` names
 * before yielding until the next sweep, which resumes where this one stopped.
 */
import { randomUUID } from 'node:crypto';
import type { Dir } from 'node:fs';
import { opendir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface SweepOptions {
  /** ms since a file's last write (mtime) after which it is deleted. */
  readonly retention: number;
  /** Only names this store writes are ever deleted (entries, assets, their temporary files). */
  readonly owns: (name: string) => boolean;
  readonly now?: () => number;
  /** Names examined per sweep (bounded work); the next sweep carries on from there. */
  readonly perSweep?: number;
  /** Files stat'ed and deleted at once. */
  readonly batch?: number;
}

export interface Sweeper {
  /** One bounded sweep; resolves with the number of files deleted. Concurrent calls share one sweep. */
  sweep(): Promise<number>;
}

const codeOf = (error: unknown): unknown => (error as NodeJS.ErrnoException | undefined)?.code;

export function createSweeper(dir: string, { retention, owns, now = Date.now, perSweep = 2_000, batch = 32 }: SweepOptions): Sweeper {
  let handle: Dir | undefined;
  let running: Promise<number> | undefined;
  const remove = (name: string): Promise<boolean> => removeIf(dir, name, (mtimeMs) => now() - mtimeMs >= retention);

  async function once(): Promise<number> {
    if (!handle) {
      try {
        handle = await opendir(dir, { bufferSize: batch });
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return 0;
        throw error;
      }
    }
    let examined = 0;
    let deleted = 0;
    while (examined < perSweep) {
      const names: string[] = [];
      for (let entry = await handle.read(); entry; entry = names.length < batch ? await handle.read() : null) {
        if (entry.isFile() && owns(entry.name)) names.push(entry.name);
        if (++examined >= perSweep) break;
      }
      if (names.length === 0 && examined < perSweep) {
        // The whole folder was read: the next sweep starts over.
        await handle.close().catch(() => undefined);
        handle = undefined;
        break;
      }
      deleted += (await Promise.all(names.map(remove))).filter(Boolean).length;
    }
    return deleted;
  }

  return {
    sweep() {
      running ??= once().finally(() => (running = undefined));
      return running;
    },
  };
}

/** Whether the file at `path` is (still) to go, by its last write; false when it is gone or cannot be read. */
async function doomedAt(path: string, doomed: (mtimeMs: number) => boolean): Promise<boolean> {
  try {
    return doomed((await stat(path)).mtimeMs);
  } catch {
    return false;
  }
}

/**
 * Deletes `dir/name` when `doomed` holds for its last write. It is moved aside first and looked at again there: a
 * put or set that refreshed or rewrote the file between the first look and the move shows as a new mtime, and the
 * file goes back (an asset's bytes at a key never differ, and a cache entry written in those microseconds is the
 * newest one). Resolves with whether it was deleted.
 */
export async function removeIf(dir: string, name: string, doomed: (mtimeMs: number) => boolean): Promise<boolean> {
  const path = join(dir, name);
  if (!(await doomedAt(path, doomed))) return false;
  const aside = join(dir, `.${name}.${randomUUID()}.swept.tmp`);
  try {
    await rename(path, aside);
  } catch {
    return false;
  }
  if (await doomedAt(aside, doomed)) {
    await unlink(aside).catch(() => undefined);
    return true;
  }
  await rename(aside, path).catch(() => unlink(aside).catch(() => undefined));
  return false;
}

/** Files a store writes aside before renaming them into place (or a sweep moves aside): `.<name>.<uuid>.tmp`. */
export const isTemporary = (name: string): boolean => name.startsWith('.') && name.endsWith('.tmp');

/**
 * How often the local folders are swept: every 10 minutes, or twice per retention when that is shorter (so a file
 * outlives its retention by at most half of it). Each sweep is bounded, so a large backlog clears over a few.
 */
export const sweepInterval = (retention: number): number => Math.min(10 * 60_000, Math.max(1_000, retention / 2));

export interface Sweepable {
  sweep?(): Promise<number>;
}

/**
 * Runs every store's sweep now and then every `intervalMs` on an unref'd timer (it never keeps the process
 * alive). Failures are reported, never thrown. `stop` waits for a sweep in progress.
 */
export function sweepPeriodically(stores: readonly (Sweepable | undefined)[], intervalMs: number, onError: (error: unknown) => void): { stop(): Promise<void> } {
  const sweeps = stores.flatMap((store) => (store?.sweep ? [() => store.sweep!()] : []));
  if (sweeps.length === 0) return { stop: async () => undefined };
  let current: Promise<unknown> = Promise.resolve();
  const run = () => {
    current = Promise.all(sweeps.map((sweep) => sweep().catch(onError)));
  };
  run();
  const timer = setInterval(run, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
