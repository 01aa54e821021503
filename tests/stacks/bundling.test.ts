/**
 * The function bundle as stacks/bundling.ts builds it (through bench/lib/bundle.ts, SST's own esbuild and options),
 * imported in fresh processes: no ES import of node:http survives the build, so neither with local stores nor with
 * Lambda's settings (the X-Ray tracer loaded during init, the S3 SDK right after: `afterInit`) does the import load Node's bundled undici
 * and node:http2 (stacks/bundling.ts, nodeHttpWithoutFacade). The control proves the check sees that load.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildBundle, type Bundle } from '../../bench/lib/bundle.ts';

const run = promisify(execFile);
const LAMBDA_SETTINGS = {
  GLANCE_S3_BUCKET: 'assets',
  GLANCE_CACHE_BUCKET: 'cache',
  // Never reached: making the clients sends nothing.
  GLANCE_S3_ENDPOINT: 'http://127.0.0.1:9',
  AWS_LAMBDA_FUNCTION_NAME: 'glance-test',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  POWERTOOLS_TRACE_ENABLED: 'false',
};

let dir: string;
let bundle: Bundle;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glance-bundling-'));
  bundle = await buildBundle(dir);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Node's internal undici and http2 modules that a fresh process has loaded once it imported `url` (and the handler's afterInit). */
async function undiciAfterImporting(url: string, env: Record<string, string> = {}): Promise<string[]> {
  const script = `await (await import(${JSON.stringify(url)})).afterInit; process.stdout.write(JSON.stringify(process.moduleLoadList)); process.exit(0);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, GLANCE_CACHE_DIR: join(dir, 'cache'), GLANCE_STORAGE_DIR: join(dir, 'assets'), ...env },
    timeout: 60_000,
  });
  return (JSON.parse(stdout) as string[]).filter((name) => /undici|http2/.test(name));
}

test('no chunk imports node:http as an ES module', () => {
  for (const chunk of bundle.chunks) {
    assert.ok(!/\bfrom\s*["'](node:)?http["']/.test(readFileSync(chunk, 'utf8')), `${chunk} imports node:http`);
  }
});

test("importing the handler loads neither Node's undici nor node:http2, with local stores or Lambda's settings", async () => {
  const handler = pathToFileURL(bundle.file).href;
  assert.deepEqual(await undiciAfterImporting(handler), []);
  assert.deepEqual(await undiciAfterImporting(handler, LAMBDA_SETTINGS), []);
  assert.notDeepEqual(await undiciAfterImporting('node:http'), [], 'control: an ES import of node:http does load them');
});
