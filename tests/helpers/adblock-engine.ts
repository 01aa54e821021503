/**
 * One prebuilt adblock engine (GLANCE_ADBLOCK_ENGINE) for every service and test renderer (tests/browser/helpers.ts)
 * the tests and the benchmarks start whose engine is not the subject. Building it from the packaged lists costs ~5 s
 * of CPU and a few hundred MB per process (bench/adblock), and each test file is a process of its own: without this,
 * every file that renders with adblock on (the default) paid it again. The engine is the one the lists build (the
 * Lambda stack ships the same kind), written once per version of its inputs to the temporary folder and loaded in
 * tens of milliseconds; the build from the lists stays covered where it is the subject
 * (tests/browser/adblock-lists.test.ts, tests/app/adblock.test.ts opts out).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the engine's bytes depend on: the code that picks the rules, and the versions of the packages the rules
 *  and the engine come from (the lock file pins them). */
const INPUTS = ['lib/browser/adblock-lists.ts', 'lib/browser/adblock-engine.ts', 'package-lock.json'].map((path) =>
  fileURLToPath(new URL(`../../${path}`, import.meta.url)),
);

let engine: Promise<string> | undefined;

/** The path of the engine built from the packaged lists alone, built on first call if no earlier process did. */
export function sharedAdblockEngine(): Promise<string> {
  engine ??= (async () => {
    const hash = createHash('sha256');
    for (const input of INPUTS) hash.update(readFileSync(input));
    const path = join(tmpdir(), `glance-test-adblock-${hash.digest('hex').slice(0, 16)}.bin`);
    if (existsSync(path)) return path;
    const { serializedEngine } = await import('../../lib/browser/adblock-engine.ts');
    // Written aside, then renamed: a file built by two test processes at once is whole for each reader.
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, await serializedEngine([]));
    renameSync(partial, path);
    return path;
  })();
  return engine;
}

/** `env` with the shared engine, unless it chooses its own adblock lists or engine. */
export async function withSharedAdblockEngine(env: Record<string, string>): Promise<Record<string, string>> {
  if ('GLANCE_ADBLOCK_ENGINE' in env || 'GLANCE_ADBLOCK_LISTS' in env) return env;
  return { GLANCE_ADBLOCK_ENGINE: await sharedAdblockEngine(), ...env };
}
