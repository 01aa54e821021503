/** The real local service as a child process (npm start's command), on a free loopback port, for what only a process shows: signals, its log lines. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withSharedAdblockEngine } from './adblock-engine.ts';
import { unusedPort } from './server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface LocalProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once it has exited. */
  readonly exited: Promise<number | null>;
}

/** Resolves once the service says it listens; `env` is added to this process's environment (with the tests' shared adblock engine, tests/helpers/adblock-engine.ts, unless `env` names adblock lists or an engine). */
export async function startLocalProcess(env: Record<string, string>): Promise<LocalProcess> {
  const port = await unusedPort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'functions/local.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), ...(await withSharedAdblockEngine(env)) },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
    void exited.then((code) => reject(new Error(`the service exited early with ${code}: ${stderr}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, stderr: () => stderr, exited };
}
