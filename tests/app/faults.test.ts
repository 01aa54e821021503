/**
 * Every EFATAL logs its cause (issue 26): a storage that cannot be written and an API-keys parameter that cannot be
 * read each answer a generic 500 EFATAL naming only the request id, and leave exactly one structured record with
 * that request id and the cause (message, code, stack) — in the core, through the Lambda handler's Powertools
 * logger and on the local service's stderr.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createHandler } from '../../functions/api.ts';
import { logger } from '../../functions/observability.ts';
import { createApp } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import type { ErrorRecord, FaultRecord } from '../../lib/http/fault.ts';
import { joined } from '../../lib/text/pieces.ts';
import { startLocalProcess } from '../helpers/local-process.ts';
import { html, startServer, unusedPort, type TestServer } from '../helpers/server.ts';
import { q, TEST_BROWSER_ARGS } from '../helpers/service.ts';
import { apiEvent, lambdaContext } from '../stacks/lambda.ts';

/** The SSM endpoint of this process: a loopback port nothing listens on, so reading the keys fails at once. */
async function unreachableSsm(): Promise<Record<string, string>> {
  return {
    AWS_ENDPOINT_URL_SSM: `http://127.0.0.1:${await unusedPort()}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_MAX_ATTEMPTS: '1',
  };
}

const request = (rawQueryString: string, requestId: string, headers: Record<string, string> = {}) => ({
  method: 'GET',
  rawQueryString,
  headers,
  requestId,
  receivedAt: Date.now(),
});

/** The generic answer: the code and the request id, nothing of the cause. */
function assertGeneric(body: { code: string; message: string }, requestId: string, secret: string): void {
  assert.equal(body.code, 'EFATAL');
  assert.equal(body.message, `An unexpected error occurred. It was logged with request id ${requestId}.`);
  assert.ok(!JSON.stringify(body).includes(secret), 'the cause is not in the answer');
}

/** The chain of causes, outermost first. */
const chain = (error: ErrorRecord | undefined): ErrorRecord[] => (error ? [error, ...chain(error.cause)] : []);

describe('EFATAL causes are logged', { timeout: 180_000 }, () => {
  let site: TestServer;
  let root: string;
  before(async () => {
    site = await startServer({ '/': html('<title>fine</title><body style="background:#fff">fine') });
    root = await mkdtemp(join(tmpdir(), 'glance-faults-'));
    Object.assign(process.env, await unreachableSsm());
  });
  after(async () => {
    await site.close();
    await rm(root, { recursive: true, force: true });
  });

  test('a storage that cannot be written: one record with the errno code, a generic answer', async () => {
    // A file where the assets folder's parent should be: mkdir fails with ENOTDIR.
    const blocker = join(root, 'blocker');
    await writeFile(blocker, 'not a folder');
    const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_STORAGE_DIR: join(blocker, 'assets'), GLANCE_CACHE: 'off' });
    const faults: FaultRecord[] = [];
    const app = createApp(config, { browserArgs: TEST_BROWSER_ARGS, onFault: (fault) => faults.push(fault) });
    try {
      const answer = await app.handle(request(q(`${site.url}/`, 'screenshot&meta=false&adblock=false'), 'req-storage'));
      assert.equal(answer.statusCode, 500);
      assertGeneric(JSON.parse(joined(answer.body)), 'req-storage', blocker);
      // The sweep of the same folder fails too, in the background: reported, but no answer's EFATAL.
      const fatal = faults.filter((fault) => fault.msg === 'EFATAL');
      assert.equal(fatal.length, 1, JSON.stringify(faults, null, 1).slice(0, 4000));
      const [fault] = fatal;
      assert.equal(fault!.msg, 'EFATAL');
      assert.equal(fault!.requestId, 'req-storage');
      const causes = chain(fault!.error);
      assert.match(causes[0]!.message, /local storage/);
      assert.ok(causes.some((cause) => cause.code === 'ENOTDIR' && cause.stack?.includes('at ')), JSON.stringify(causes));
    } finally {
      await app.close();
    }
  });

  test('an unreadable API-keys parameter, through the Lambda handler: one Powertools line with the API Gateway request id', async () => {
    const handler = createHandler(loadConfig({ GLANCE_API_KEYS_PARAMETER: '/glance/keys' }));
    // Powertools writes an error with console.error, so to stderr.
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    }) as typeof process.stderr.write;
    let result: APIGatewayProxyStructuredResultV2;
    // tests/setup.ts silences Powertools for every other test.
    logger.setLogLevel('ERROR');
    try {
      result = (await handler(apiEvent(q('https://example.com/')), lambdaContext)) as APIGatewayProxyStructuredResultV2;
    } finally {
      process.stderr.write = write;
      logger.setLogLevel('SILENT');
    }
    assert.equal(result.statusCode, 500);
    const body = JSON.parse(String(result.body));
    const requestId = result.headers!['x-request-id'] as string;
    assertGeneric(body, requestId, '/glance/keys');
    const records = lines.flatMap((line) => line.split('\n')).filter((line) => line.includes('"EFATAL"')).map((line) => JSON.parse(line));
    assert.equal(records.length, 1, lines.join(''));
    const [record] = records;
    assert.equal(record.level, 'ERROR');
    assert.equal(record.message, 'EFATAL');
    assert.equal(record.requestId, requestId);
    assert.match(record.error.message, /API keys could not be read/);
    assert.ok(record.error.cause?.message, 'the SDK error is the cause');
    assert.match(record.error.stack, /api-keys\.ts/);
  });

  test('the local service writes the record as one JSON line on stderr', async () => {
    const local = await startLocalProcess({
      GLANCE_API_KEYS_PARAMETER: '/glance/keys',
      GLANCE_STORAGE_DIR: join(root, 'local-assets'),
      GLANCE_CACHE_DIR: join(root, 'local-cache'),
    });
    try {
      const response = await fetch(`${local.base}/?${q('https://example.com/')}`, { headers: { 'x-api-key': 'k' } });
      assert.equal(response.status, 500);
      const requestId = response.headers.get('x-request-id')!;
      assertGeneric((await response.json()) as { code: string; message: string }, requestId, '/glance/keys');
      local.child.kill('SIGTERM');
      await local.exited;
      const records = local.stderr().split('\n').filter((line) => line.includes('"EFATAL"')).map((line) => JSON.parse(line) as FaultRecord & { level: string });
      assert.equal(records.length, 1, local.stderr());
      assert.equal(records[0]!.level, 'error');
      assert.equal(records[0]!.requestId, requestId);
      assert.match(records[0]!.error.message, /API keys could not be read/);
      assert.ok(records[0]!.error.cause, 'the SDK error is the cause');
    } finally {
      if (local.child.exitCode === null) local.child.kill('SIGKILL');
    }
  });
});
