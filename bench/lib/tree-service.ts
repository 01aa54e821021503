/**
 * The local service of a checkout as a child process (`node --import tsx <tree>/functions/local.ts`), as `npm start`
 * runs it: this checkout, or another commit's worktree for side-by-side runs (`git worktree add <dir> <commit>` with
 * this checkout's node_modules linked in). Ready once it says it is listening, after its own start-up; its files (stored
 * assets, cached answers) in a temporary folder of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TEST_BROWSER_ARGS } from '../../tests/helpers/chromium-args.ts';
import { unusedPort } from '../../tests/helpers/server.ts';

export interface TreeService {
  readonly url: string;
  readonly pid: number;
  /** Its stored assets and cached answers. */
  readonly dir: string;
  /** The service's own CPU time so far (user + system, its worker threads included), read from /proc. */
  cpuMs(): number;
  /** SIGTERM, then after `graceMs` SIGKILL to the service and its browser; its folder removed. */
  close(graceMs?: number): Promise<void>;
}

/** Linux's clock ticks per second for /proc's CPU times. */
const TICKS_PER_SECOND = 100;

/**
 * Services still running: a service is a process group of its own, which outlives a bench that is stopped or fails,
 * busy with whatever hostile page it was given. They are ended with the bench, however it ends.
 */
const running = new Set<number>();
const endAll = (): void => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
};
process.once('exit', endAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    endAll();
    process.exit(130);
  });
}

export async function startTreeService(tree: string, env: Record<string, string> = {}): Promise<TreeService> {
  const port = await unusedPort();
  const dir = mkdtempSync(join(tmpdir(), 'glance-tree-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(tree, 'functions', 'local.ts')], {
    cwd: tree,
    // A process group of its own, so that closing it ends its Chromium too.
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      GLANCE_ALLOW_HOSTS: '127.0.0.1',
      GLANCE_STORAGE_DIR: join(dir, 'assets'),
      GLANCE_CACHE_DIR: join(dir, 'cache'),
      GLANCE_CHROMIUM_ARGS: JSON.stringify(TEST_BROWSER_ARGS),
      ...env,
    },
  });
  running.add(child.pid!);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child.pid!));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service of ${tree} did not start within 120 s`)), 120_000);
    child.once('exit', (code) => reject(new Error(`the service of ${tree} exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('Glance is listening')) return;
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    dir,
    cpuMs() {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    },
    async close(graceMs = 0) {
      if (graceMs > 0) {
        child.kill('SIGTERM');
        await Promise.race([exited, delay(graceMs)]);
      }
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
