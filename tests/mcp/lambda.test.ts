/**
 * `/mcp` through the Lambda handler, as API Gateway (HTTP API, payload 2.0) invokes it: the SDK's client speaks to the
 * handler through a fetch that turns each request into an event and each result into a Response. Stateless: each
 * invocation stands alone.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createHandler, type Handler } from '../../functions/api.ts';
import { loadConfig } from '../../lib/config.ts';
import type { TestServer } from '../helpers/server.ts';
import { call, connect, startPages, textOf } from './fixtures.ts';

const context = {
  awsRequestId: 'req-mcp',
  functionName: 'glance',
  getRemainingTimeInMillis: () => 30_000,
} as Context;

/** The HTTP request as API Gateway hands it over: a base64 body, as it sends one it may not read as text. */
async function toEvent(url: URL, init: RequestInit = {}): Promise<APIGatewayProxyEventV2> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body)).toString('base64');
  const method = init.method ?? 'GET';
  return {
    version: '2.0',
    routeKey: 'ANY /mcp',
    rawPath: url.pathname,
    rawQueryString: '',
    headers,
    requestContext: { requestId: `apigw-${Math.random()}`, timeEpoch: Date.now(), http: { method, path: url.pathname } },
    isBase64Encoded: body !== undefined,
    ...(body === undefined ? {} : { body }),
  } as unknown as APIGatewayProxyEventV2;
}

/** Statuses whose answer has no body by definition (Fetch: a null body status). */
const NULL_BODY = new Set([204]);

const through =
  (handler: Handler) =>
  async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const result = (await handler(await toEvent(new URL(String(input)), init), context)) as APIGatewayProxyStructuredResultV2;
    const headers = new Headers(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)] as [string, string]));
    const status = result.statusCode ?? 200;
    return new Response(NULL_BODY.has(status) ? null : (result.body ?? null), { status, headers });
  };

let pages: TestServer;
let handler: Handler;
before(async () => {
  pages = await startPages();
  handler = createHandler(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off', GLANCE_API_KEYS: 'lambda-key' }));
});
after(async () => {
  await handler?.close();
  await pages?.close();
});

const ENDPOINT = 'https://api.glance.test/mcp';

test('initialises, lists the tools and runs one, each request an invocation of its own', async () => {
  const client = await connect(ENDPOINT, { fetch: through(handler), requestInit: { headers: { authorization: 'Bearer lambda-key' } } });
  try {
    assert.equal(client.getServerVersion()?.name, 'glance');
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['extract', 'markdown', 'screenshot']);
    const result = await call(client, 'markdown', { url: `${pages.url}/article`, selector: 'main' });
    assert.match(textOf(result), /^# The article\n\nFirst words\./);
    const refused = await call(client, 'extract', { url: `${pages.url}/hostile` });
    assert.match(textOf(refused), /^EFORBIDDENURL: /);
  } finally {
    await client.close();
  }
});

test('without the key: 401 EAUTH; GET: 405; a preflight names the MCP headers', async () => {
  await assert.rejects(connect(ENDPOINT, { fetch: through(handler) }), /"code":"EAUTH"/);
  const get = await through(handler)(ENDPOINT, { headers: { accept: 'text/event-stream', 'x-api-key': 'lambda-key' } });
  assert.equal(get.status, 405);
  const preflight = await through(handler)(ENDPOINT, { method: 'OPTIONS' });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /mcp-protocol-version/);
});
