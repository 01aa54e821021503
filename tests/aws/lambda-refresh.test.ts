/**
 * The Lambda refresher against a local HTTP server posing as the Lambda Invoke endpoint: the real SDK signs and
 * sends the request, nothing reaches AWS.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLambdaRefresher, isRefreshEvent } from '../../lib/aws/lambda-refresh.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'test';
process.env.AWS_SECRET_ACCESS_KEY = 'test';
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;

const FUNCTION = 'glance-api';
const PATH = `/2015-03-31/functions/${FUNCTION}/invocations`;

interface Invocation {
  method: string;
  invocationType: string | undefined;
  payload: unknown;
}

let server: TestServer;
let invocations: Invocation[];
let status: number;

before(async () => {
  server = await startServer({
    [PATH]: async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      invocations.push({
        method: req.method ?? '',
        invocationType: req.headers['x-amz-invocation-type'] as string | undefined,
        payload: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      if (status === 202) {
        res.writeHead(202).end();
      } else {
        // A non-retryable service error, as Lambda answers a missing permission.
        res
          .writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' })
          .end(JSON.stringify({ Type: 'User', message: 'not allowed' }));
      }
    },
  });
});
after(() => server.close());

const reset = () => {
  invocations = [];
  status = 202;
};

const job = (key: string, headers: Record<string, string | undefined> = {}) => ({
  key,
  request: { rawQueryString: 'url=https%3A%2F%2Fexample.com&screenshot', headers },
  run: async () => assert.fail('a Lambda refresh never runs in this process'),
});

describe('createLambdaRefresher', () => {
  test('invokes the function asynchronously with the request as a refresh event', async () => {
    reset();
    const refresh = createLambdaRefresher(FUNCTION, 'us-east-1', { endpoint: server.url });
    await refresh(job('k1', { 'x-api-header-cookie': 'a=1', 'X-Api-Header-Accept-Language': 'fr', 'x-api-key': 'secret', accept: '*/*', 'x-api-header-empty': undefined }));
    assert.equal(invocations.length, 1);
    const [invocation] = invocations;
    assert.equal(invocation?.method, 'POST');
    assert.equal(invocation?.invocationType, 'Event');
    assert.deepEqual(invocation?.payload, {
      glanceRefresh: {
        v: 1,
        rawQueryString: 'url=https%3A%2F%2Fexample.com&screenshot',
        headers: { 'x-api-header-cookie': 'a=1', 'x-api-header-accept-language': 'fr' },
      },
    });
    assert.ok(isRefreshEvent(invocation?.payload));
  });

  test('one invocation per key within the window, another after it', async () => {
    reset();
    let time = 0;
    const refresh = createLambdaRefresher(FUNCTION, 'us-east-1', { endpoint: server.url, windowMs: 30_000, now: () => time });
    await Promise.all([1, 2, 3, 4, 5].map(() => refresh(job('same'))));
    await refresh(job('other'));
    assert.equal(invocations.length, 2);
    time += 29_999;
    await refresh(job('same'));
    assert.equal(invocations.length, 2);
    time += 1;
    await refresh(job('same'));
    assert.equal(invocations.length, 3);
  });

  test('a failed invocation is reported, and the next stale request tries again', async () => {
    reset();
    status = 403;
    const errors: string[] = [];
    const refresh = createLambdaRefresher(FUNCTION, 'us-east-1', {
      endpoint: server.url,
      onError: (_error, key) => void errors.push(key),
    });
    await refresh(job('k'));
    assert.deepEqual(errors, ['k']);
    status = 202;
    await refresh(job('k'));
    assert.equal(invocations.length, 2);
    assert.deepEqual(errors, ['k']);
  });
});

test('the SDK is loaded on the first refresh, not with the module (a cold start never pays for it)', async () => {
  reset();
  const moduleUrl = new URL('../../lib/aws/lambda-refresh.ts', import.meta.url).href;
  const script = `
    import { registerHooks } from 'node:module';
    let loads = 0;
    registerHooks({ resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      if (resolved.url.includes('client-lambda')) loads++;
      return resolved;
    } });
    const { createLambdaRefresher } = await import(${JSON.stringify(moduleUrl)});
    const refresh = createLambdaRefresher('f', 'us-east-1', { endpoint: ${JSON.stringify(server.url)} });
    const before = loads;
    await refresh({ key: 'k', request: { rawQueryString: '', headers: {} }, run: async () => {} });
    console.log(JSON.stringify({ before, after: loads }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  const { before: atImport, after: afterRefresh } = JSON.parse(stdout) as { before: number; after: number };
  assert.equal(atImport, 0);
  assert.ok(afterRefresh > 0);
});

describe('isRefreshEvent', () => {
  test('accepts only the refresh payload, never an API Gateway event', () => {
    assert.equal(isRefreshEvent({ glanceRefresh: { v: 1, rawQueryString: 'url=x', headers: {} } }), true);
    for (const other of [
      undefined,
      null,
      'text',
      { version: '2.0', rawQueryString: 'url=x', headers: {}, requestContext: { http: { method: 'GET' } } },
      { glanceRefresh: { v: 2, rawQueryString: 'url=x', headers: {} } },
      { glanceRefresh: { v: 1, rawQueryString: 1, headers: {} } },
      { glanceRefresh: { v: 1, rawQueryString: 'url=x', headers: { a: 1 } } },
      { glanceRefresh: { v: 1, rawQueryString: 'url=x', headers: null } },
    ]) {
      assert.equal(isRefreshEvent(other), false, JSON.stringify(other));
    }
  });
});
