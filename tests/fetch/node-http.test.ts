/**
 * The guarded fetcher's node:http and node:https come without their ES module facade (lib/fetch/node-http.ts): a
 * fresh process importing it must not load Node's bundled undici (and node:http2 with it), ~16 ms of CPU that
 * every cold start would pay. The control proves the check sees that load when it happens.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url);

/** Node's internal modules loaded by a fresh process (under tsx, as the tests run) once it imported `specifier`. */
async function loadedBy(specifier: string): Promise<string[]> {
  const script = `await import(${JSON.stringify(specifier)}); process.stdout.write(JSON.stringify(process.moduleLoadList));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, timeout: 60_000 });
  return (JSON.parse(stdout) as string[]).filter((name) => /undici|http2/.test(name));
}

test("importing the fetcher loads neither Node's undici nor node:http2", async () => {
  assert.deepEqual(await loadedBy('./lib/fetch/index.ts'), []);
  assert.notDeepEqual(await loadedBy('node:http'), [], "control: an ES import of node:http does load them");
});
