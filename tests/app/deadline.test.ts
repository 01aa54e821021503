/**
 * One clock per request (issue: failures that stay where they belong): the budget starts when the request
 * arrived, never runs past the transport's deadline (a Lambda invocation's remaining time), and bounds the
 * cache's store as well as the pipeline, so a wedged dependency ends in the contract's ETIMEOUT on time.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createApp, type App } from '../../lib/app.ts';
import { createS3CacheStore } from '../../lib/aws/s3-cache.ts';
import { loadS3Sdk } from '../../lib/aws/s3-client.ts';
import { loadConfig } from '../../lib/config.ts';
import { createStorage } from '../../lib/stores.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, TEST_BROWSER_ARGS } from '../helpers/service.ts';
import { joined } from '../../lib/text/pieces.ts';

const request = (query: string, extra: Partial<ApiRequest> = {}): ApiRequest => ({
  method: 'GET',
  rawQueryString: query,
  headers: {},
  requestId: 'test',
  receivedAt: Date.now(),
  ...extra,
});

describe('one clock per request', () => {
  let site: TestServer;
  let silent: Server;
  const sockets: Socket[] = [];
  const requested: string[] = [];
  let silentPort: number;
  before(async () => {
    site = await startServer({ '/': html('<title>ok</title>'), '/never': () => undefined });
    // Accepts connections and never answers: an S3 that hangs.
    silent = createServer((socket) => {
      sockets.push(socket);
      // What each connection asked for: other tests' abandoned cache reads may land here too.
      socket.once('data', (data) => void requested.push(String(data).split(' ', 2)[1] ?? ''));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
    // Loaded before any request, as the Lambda handler does during init: its first load (seconds through tsx on a
    // busy machine) is not a request's to wait for.
    await loadS3Sdk();
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await site.close();
  });

  const app = (settings: Record<string, string> = {}, cacheStore?: ReturnType<typeof createS3CacheStore>): App =>
    createApp(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off', ...settings }), { cacheStore: cacheStore ?? null });

  test('a transport deadline shorter than `timeout` ends the request with ETIMEOUT before it', async () => {
    const core = app();
    const started = Date.now();
    const response = await core.handle(request(q(`${site.url}/never`), { receivedAt: started, deadline: started + 1_500 }));
    const took = Date.now() - started;
    assert.equal(response.statusCode, 504);
    assert.equal(JSON.parse(joined(response.body)).code, 'ETIMEOUT');
    // The load stops short of the deadline by the pipeline's answer reserve, so the answer is in time.
    assert.ok(took >= 1_000 && took <= 1_600, `took ${took} ms`);
    await core.close();
  });

  test('time spent before the core saw the request counts against its budget', async () => {
    const core = app();
    const response = await core.handle(request(q(`${site.url}/never`, 'timeout=3s'), { receivedAt: Date.now() - 2_000 }));
    assert.equal(JSON.parse(joined(response.body)).code, 'ETIMEOUT');
    const total = Number.parseInt(response.headers['x-response-time'] ?? '', 10);
    assert.ok(total >= 2_600 && total <= 3_100, `x-response-time ${total} ms`);
    await core.close();
  });

  test('a cache store that accepts connections and never answers cannot hold the request past its budget', async () => {
    const store = createS3CacheStore({
      kind: 's3',
      bucket: 'cache',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${silentPort}`,
      forcePathStyle: true,
    });
    const core = app({}, store);
    const started = Date.now();
    const response = await core.handle(request(q(`${site.url}/`, 'timeout=2s')));
    const took = Date.now() - started;
    assert.equal(response.statusCode, 504);
    assert.equal(JSON.parse(joined(response.body)).code, 'ETIMEOUT');
    assert.ok(took < 2_600, `took ${took} ms`);
    await core.close();
  });

  test('a storage bucket that accepts connections and never answers: the screenshot ends within its budget as ETIMEOUT, and the upload with it', { timeout: 30_000 }, async () => {
    const storage = createStorage(
      { kind: 's3', bucket: 'assets', region: 'us-east-1', endpoint: `http://127.0.0.1:${silentPort}`, forcePathStyle: true },
      'https://cdn.test',
    );
    const core = createApp(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off' }), {
      cacheStore: null,
      storage,
      browserArgs: TEST_BROWSER_ARGS,
    });
    try {
      const uploads = () => requested.filter((path) => path.startsWith('/assets/')).length;
      const before = uploads();
      const started = Date.now();
      // adblock=false: the adblock engine's first build in this process is not what is measured here.
      const response = await core.handle(request(q(`${site.url}/`, 'screenshot&meta=false&adblock=false&timeout=8s'), { receivedAt: started }));
      const took = Date.now() - started;
      assert.equal(response.statusCode, 504, joined(response.body));
      assert.equal(JSON.parse(joined(response.body)).code, 'ETIMEOUT');
      assert.ok(took <= 8_300, `took ${took} ms`);
      // A retry begun just before the answer may reach the socket a few milliseconds after it.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const tried = uploads() - before;
      assert.ok(tried >= 1 && tried <= 2, `${tried} storage requests: one attempt and at most one retry`);
      // The abandoned upload does not try again once the answer is sent.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(uploads() - before, tried, 'no attempt after the answer');
    } finally {
      await core.close();
    }
  });
});
