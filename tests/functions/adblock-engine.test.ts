/**
 * A prebuilt adblock engine (GLANCE_ADBLOCK_ENGINE) that is corrupt or from another adblocker version is refused at
 * start-up with one structured line naming the cause, in the local service (a JSON line on stderr) and in the Lambda
 * handler's init (a Powertools line, right after init, with GLANCE_BROWSER_AT_INIT off). What is served then:
 * metadata as ever, adblocked captures a generic EFATAL, each logged with its request id.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FaultRecord } from '../../lib/http/fault.ts';
import { TEST_BROWSER_ARGS } from '../helpers/chromium-args.ts';
import { spawnHandlerModule } from '../helpers/handler-module.ts';
import { startLocalProcess } from '../helpers/local-process.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';

const MARK = 'glance-test after init';

/** The lines of `text` that are JSON records with `msg`/`message` `start-up`. */
const startUpRecords = (text: string): Array<FaultRecord & Record<string, unknown>> =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"start-up"'))
    .map((line) => JSON.parse(line) as FaultRecord & Record<string, unknown>);

describe('a corrupt prebuilt adblock engine', { timeout: 120_000 }, () => {
  let dir: string;
  let engine: string;
  let site: TestServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-engine-'));
    engine = join(dir, 'adblock-engine.bin');
    // Its first two bytes read as a format version no adblocker wrote.
    await writeFile(engine, Buffer.from('not an engine at all'));
    site = await startServer({ '/': html('<title>Still served</title><body style="background:#fff">fine') });
  });
  after(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('the local service says so once at start-up; metadata is served, an adblocked screenshot answers EFATAL', async () => {
    const local = await startLocalProcess({
      GLANCE_ADBLOCK_ENGINE: engine,
      GLANCE_ALLOW_HOSTS: '127.0.0.1',
      GLANCE_STORAGE_DIR: join(dir, 'assets'),
      GLANCE_CACHE: 'off',
      GLANCE_WORKERS: '1',
      GLANCE_CHROMIUM_ARGS: JSON.stringify(TEST_BROWSER_ARGS),
    });
    try {
      const [record, ...more] = startUpRecords(local.stderr());
      assert.equal(more.length, 0, local.stderr());
      assert.equal(record?.level, 'error');
      assert.equal(record.requestId, undefined);
      assert.match(record.error.message, /GLANCE_ADBLOCK_ENGINE=.*adblock-engine\.bin could not be loaded \(serialized engine version mismatch/);
      assert.match(record.error.message, /rebuild it/);

      const metadata = await fetch(`${local.base}/?${q(`${site.url}/`)}`);
      assert.equal(metadata.status, 200);
      assert.equal(((await metadata.json()) as { data: { title: string } }).data.title, 'Still served');

      const shot = await fetch(`${local.base}/?${q(`${site.url}/`, 'screenshot&meta=false')}`);
      assert.equal(shot.status, 500);
      const requestId = shot.headers.get('x-request-id')!;
      const body = (await shot.json()) as { code: string; message: string };
      assert.equal(body.code, 'EFATAL');
      assert.equal(body.message, `An unexpected error occurred. It was logged with request id ${requestId}.`);
      local.child.kill('SIGTERM');
      await local.exited;
      const fatal = local.stderr().split('\n').filter((line) => line.includes('"EFATAL"')).map((line) => JSON.parse(line) as FaultRecord);
      assert.equal(fatal.length, 1, local.stderr());
      assert.equal(fatal[0]!.requestId, requestId);
      assert.match(JSON.stringify(fatal[0]!.error), /could not be loaded/);
      assert.equal(startUpRecords(local.stderr()).length, 1, 'the start-up record is not repeated');
    } finally {
      if (local.child.exitCode === null) local.child.kill('SIGKILL');
    }
  });

  test("the Lambda handler's module says so right after init, without GLANCE_BROWSER_AT_INIT", async () => {
    const then = `
      await handlerModule.afterInit;
      process.stdout.write(${JSON.stringify(`${MARK}\n`)});
      process.exit(0);
    `;
    const lambda = spawnHandlerModule(then, {
      GLANCE_ADBLOCK_ENGINE: engine,
      GLANCE_BROWSER_AT_INIT: 'false',
      GLANCE_STORAGE_DIR: join(dir, 'lambda-assets'),
      GLANCE_CACHE: 'off',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    }, 'pipe');
    let stdout = '';
    let stderr = '';
    lambda.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    lambda.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => lambda.once('exit', resolve));
    assert.equal(code, 0, stderr);
    assert.ok(stdout.includes(MARK), stdout);
    const [record, ...more] = startUpRecords(stderr);
    assert.equal(more.length, 0, stderr);
    assert.equal(record?.level, 'ERROR');
    assert.equal(record.message, 'start-up');
    assert.match(record.error.message, /GLANCE_ADBLOCK_ENGINE=.*could not be loaded \(serialized engine version mismatch/);
  });
});
