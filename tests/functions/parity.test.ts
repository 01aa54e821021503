/** The Lambda handler and the local service answer the same request with the same status and headers. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createHandler } from '../../functions/api.ts';
import { createLocalServer, type LocalServer } from '../../functions/local.ts';
import { createApp } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';

/**
 * Per request (ids, timings; the etag, since with the cache off each answer is made anew and holds the target's own
 * `date` header) or per transport (framing, set by node:http on every answer).
 */
const VARYING = new Set(['x-request-id', 'x-response-time', 'server-timing', 'x-fetch-time', 'etag', 'date', 'connection', 'keep-alive', 'content-length']);

const stable = (headers: Iterable<[string, string]>) =>
  Object.fromEntries([...headers].filter(([name]) => !VARYING.has(name.toLowerCase())).sort(([a], [b]) => (a < b ? -1 : 1)));

const context = { awsRequestId: 'req-1', functionName: 'glance', getRemainingTimeInMillis: () => 30_000 } as Context;

describe('Lambda and local service: same headers', () => {
  let site: TestServer;
  let dir: string;
  let local: LocalServer;
  let base: string;
  let handler: ReturnType<typeof createHandler>;
  before(async () => {
    site = await startServer({
      '/': html('<title>same</title>'),
      '/pictured': html('<title>same</title><meta property="og:image" content="/i.gif">'),
      '/i.gif': (_req, res) => void res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64')),
    });
    dir = await mkdtemp(join(tmpdir(), 'glance-parity-'));
    const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off', GLANCE_STORAGE_DIR: dir });
    const app = createApp(config);
    handler = createHandler(config, { app });
    local = createLocalServer(app, { graceMs: 0 });
    await new Promise<void>((resolve) => local.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await local.shutdown();
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  const cases: Array<[string, string, () => string, Record<string, string>]> = [
    ['a page', 'GET', () => q(`${site.url}/`), {}],
    ['an embedded field', 'GET', () => q(`${site.url}/`, 'embed=title'), {}],
    ['a proxied image', 'GET', () => q(`${site.url}/pictured`, 'embed=image.url&embed.proxy'), {}],
    ['an invalid url', 'GET', () => 'url=file:///etc/passwd', { Origin: 'https://site.example' }],
    ['HEAD', 'HEAD', () => q(`${site.url}/`), {}],
    ['a conditional request answered 304', 'GET', () => q(`${site.url}/`), { 'If-None-Match': '*' }],
    ['a preflight', 'OPTIONS', () => q(`${site.url}/`), { Origin: 'https://blog.example', 'Access-Control-Request-Method': 'GET' }],
    ['another method', 'DELETE', () => q(`${site.url}/`), {}],
  ];

  for (const [what, method, query, headers] of cases) {
    test(`${what} (${method})`, async () => {
      const rawQueryString = query();
      const event = {
        version: '2.0',
        routeKey: '$default',
        rawPath: '/',
        rawQueryString,
        headers: { 'User-Agent': 'test', ...headers },
        requestContext: { requestId: 'apigw-1', timeEpoch: Date.now(), http: { method, path: '/' } },
        isBase64Encoded: false,
      } as unknown as APIGatewayProxyEventV2;
      const lambda = (await handler(event, context)) as APIGatewayProxyStructuredResultV2;
      const http = await fetch(`${base}/?${rawQueryString}`, { method, headers: { 'user-agent': 'test', ...headers }, redirect: 'manual' });
      await http.arrayBuffer();
      assert.equal(http.status, lambda.statusCode);
      if (headers['If-None-Match']) assert.deepEqual([lambda.statusCode, lambda.body], [304, '']);
      assert.equal(http.headers.has('etag'), 'etag' in (lambda.headers ?? {}));
      const expected = stable(Object.entries(lambda.headers ?? {}).map(([name, value]) => [name, String(value)]));
      assert.deepEqual(stable(http.headers.entries()), expected);
      assert.equal(expected['access-control-allow-origin'], '*');
    });
  }
});
