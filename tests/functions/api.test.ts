/** The Lambda handler invoked as Lambda would, offline: Powertools wired in, no AWS reached. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createHandler } from '../../functions/api.ts';
import { LAMBDA_RETURN_RESERVE_MS } from '../../lib/time/limits.ts';
import { LAMBDA_EMBED_PROXY_MAX_BYTES, loadConfig } from '../../lib/config.ts';
import { startServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';
import { joined } from '../../lib/text/pieces.ts';

const context = {
  awsRequestId: 'req-1',
  functionName: 'glance',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:glance',
  memoryLimitInMB: '1024',
  logGroupName: '/aws/lambda/glance',
  logStreamName: 's',
  callbackWaitsForEmptyEventLoop: false,
  getRemainingTimeInMillis: () => 30_000,
} as Context;

const event = (rawQueryString: string, method = 'GET'): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: '/',
    rawQueryString,
    headers: { 'User-Agent': 'test', Origin: 'https://site.example' },
    requestContext: { requestId: 'apigw-1', timeEpoch: Date.now(), http: { method, path: '/' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

test('an invalid request answers the error payload with CORS, security headers and the API Gateway request id', async () => {
  const handler = createHandler(loadConfig({}));
  const result = (await handler(event('url=file:///etc/passwd'), context)) as APIGatewayProxyStructuredResultV2;
  assert.equal(result.statusCode, 400);
  const body = JSON.parse(String(result.body));
  assert.equal(body.code, 'EINVALURL');
  assert.equal(body.url, 'file:///etc/passwd');
  const headers = result.headers ?? {};
  assert.equal(headers['x-request-id'], 'apigw-1');
  assert.equal(headers['Access-Control-Allow-Origin'] ?? headers['access-control-allow-origin'], '*');
  assert.equal(headers['Cross-Origin-Resource-Policy'] ?? headers['cross-origin-resource-policy'], 'cross-origin');
});

test('OPTIONS is answered as a preflight before the app runs', async () => {
  const handler = createHandler(loadConfig({}));
  const result = (await handler(event('', 'OPTIONS'), context)) as APIGatewayProxyStructuredResultV2;
  assert.equal(result.statusCode, 204);
});

test("an invocation with 5 s left answers the contract's ETIMEOUT before they run out, not Lambda's own error", { timeout: 20_000 }, async () => {
  // A page that starts answering and never finishes: without the invocation's clock the default 28 s budget runs.
  const site = await startServer({ '/slow': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).write('<title>') });
  const handler = createHandler(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off' }));
  const ends = Date.now() + 5_000;
  const started = Date.now();
  try {
    const result = (await handler(event(q(`${site.url}/slow`)), {
      ...context,
      getRemainingTimeInMillis: () => ends - Date.now(),
    })) as APIGatewayProxyStructuredResultV2;
    const took = Date.now() - started;
    assert.equal(result.statusCode, 504, String(result.body));
    assert.equal(JSON.parse(String(result.body)).code, 'ETIMEOUT');
    assert.ok(took < 5_000 - LAMBDA_RETURN_RESERVE_MS / 2, `answered after ${took} ms`);
    assert.ok(took >= 5_000 - LAMBDA_RETURN_RESERVE_MS - 1_000, `answered after only ${took} ms`);
  } finally {
    await handler.close();
    await site.close();
  }
});

test('GET /health answers 200 ok with no-store, apart from the API', async () => {
  const handler = createHandler(loadConfig({}));
  const result = (await handler({ ...event(''), rawPath: '/health' }, context)) as APIGatewayProxyStructuredResultV2;
  assert.equal(result.statusCode, 200);
  assert.equal(result.headers?.['cache-control'], 'no-store');
  assert.deepEqual(JSON.parse(String(result.body)), { status: 'ok' });
});

test('GET /openapi.json answers the API\'s description, apart from the API and without a key', async () => {
  const handler = createHandler(loadConfig({ GLANCE_API_KEYS: 'key-one' }));
  const result = (await handler({ ...event(''), rawPath: '/openapi.json' }, context)) as APIGatewayProxyStructuredResultV2;
  assert.equal(result.statusCode, 200);
  assert.equal(result.headers?.['content-type'], 'application/json; charset=utf-8');
  const { default: document } = await import('../../lib/http/openapi-document.cts');
  assert.deepEqual(JSON.parse(String(result.body)), document);
});

test('once stopping, /health answers 503 so a balancer drains the instance', async () => {
  const { healthResponse } = await import('../../lib/http/health.ts');
  const response = healthResponse(true);
  assert.equal(response.statusCode, 503);
  assert.deepEqual(JSON.parse(joined(response.body)), { status: 'stopping' });
});

test("embed.proxy in Lambda: base64 bytes API Gateway decodes, 4 MiB at most so the answer fits Lambda's 6 MB response", { timeout: 30_000 }, async () => {
  const limit = LAMBDA_EMBED_PROXY_MAX_BYTES;
  // A PNG signature and header, padded: sniffed as PNG whatever its length.
  const head = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const sized = (bytes: number) => Buffer.concat([head, Buffer.alloc(bytes - head.length, 1)]);
  const site = await startServer({
    '/page': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<meta property="og:image" content="/at-limit.png">'),
    '/over': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<meta property="og:image" content="/over-limit.png">'),
    '/at-limit.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(sized(limit)),
    '/over-limit.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(sized(limit + 1)),
  });
  const handler = createHandler(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off', AWS_LAMBDA_FUNCTION_NAME: 'glance' }));
  try {
    const result = (await handler(event(q(`${site.url}/page`, 'embed=image.url&embed.proxy&ping=false')), context)) as APIGatewayProxyStructuredResultV2;
    assert.equal(result.statusCode, 200, String(result.body).slice(0, 300));
    assert.equal(result.isBase64Encoded, true);
    assert.equal(result.headers?.['content-type'], 'image/png');
    assert.ok(Buffer.from(String(result.body), 'base64').equals(sized(limit)));
    const payload = Buffer.byteLength(JSON.stringify(result));
    assert.ok(payload < 6 * 1024 * 1024, `the invocation's response is ${payload} bytes`);

    const over = (await handler(event(q(`${site.url}/over`, 'embed=image.url&embed.proxy&ping=false')), context)) as APIGatewayProxyStructuredResultV2;
    assert.equal(over.statusCode, 413);
    assert.equal(over.isBase64Encoded, undefined);
    const body = JSON.parse(String(over.body));
    assert.equal(body.code, 'ETOOLARGE');
    assert.match(body.message, new RegExp(`${limit}-byte limit of \`embed\\.proxy\``));
  } finally {
    await handler.close();
    await site.close();
  }
});

test('with an origin secret, a request that did not come through CloudFront is refused, health and the API alike', async () => {
  const handler = createHandler(loadConfig({ GLANCE_ORIGIN_SECRET: 'edge-secret-123' }));
  for (const path of ['/', '/health']) {
    const around = { ...event('url=https%3A%2F%2Fexample.com'), rawPath: path };
    const refused = (await handler(around, context)) as APIGatewayProxyStructuredResultV2;
    assert.equal(refused.statusCode, 401, path);
    assert.equal(JSON.parse(String(refused.body)).code, 'EAUTH');
    const wrong = (await handler({ ...around, headers: { ...around.headers, 'x-glance-origin': 'edge-secret-12X' } }, context)) as APIGatewayProxyStructuredResultV2;
    assert.equal(wrong.statusCode, 401, `${path}: a wrong secret of the same length`);
  }
  const through = { ...event('url=file:///etc/passwd'), headers: { 'x-glance-origin': 'edge-secret-123' } };
  const answered = (await handler(through, context)) as APIGatewayProxyStructuredResultV2;
  assert.equal(answered.statusCode, 400, 'through CloudFront the request reaches the app');
  assert.equal(JSON.parse(String(answered.body)).code, 'EINVALURL');
});
