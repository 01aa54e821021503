/** The Lambda handler's module imported in a child process, as the runtime's init does, then `then` (module code run after the import). */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `then` sees the module as `handlerModule`; `env` is added to this process's environment. */
export function spawnHandlerModule(then: string, env: Record<string, string>, stderr: 'pipe' | 'inherit'): ChildProcessByStdio<null, Readable, Readable | null> {
  const code = `const handlerModule = await import(${JSON.stringify(join(ROOT, 'functions/api.ts'))});\n${then}`;
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', code], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', stderr],
    env: { ...process.env, ...env },
  }) as ChildProcessByStdio<null, Readable, Readable | null>;
}
