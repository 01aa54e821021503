/** The local service builds the event API Gateway would, and writes results back as API Gateway does. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { createLocalServer } from '../../functions/local.ts';

describe('local service ⇄ API Gateway payload 2.0', () => {
  let seen: APIGatewayProxyEventV2[] = [];
  let answer: APIGatewayProxyResultV2 = { statusCode: 200, body: 'ok' };
  let base = '';
  const server = createLocalServer(async (event, context) => {
    seen.push(event);
    assert.ok(context.getRemainingTimeInMillis() > 0);
    assert.equal(context.awsRequestId, event.requestContext.requestId);
    return answer;
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('rawQueryString is passed exactly as sent, with headers, cookies and method', async () => {
    seen = [];
    const raw = 'url=https%3A%2F%2Fexample.com%2F%3Fa%3D1&screenshot.element=%23main&bare&a=1&a=2';
    await fetch(`${base}/?${raw}`, { headers: { cookie: 'a=1; b=2', 'X-Api-Header-Foo': 'bar' } });
    const [event] = seen;
    assert.ok(event);
    assert.equal(event.version, '2.0');
    assert.equal(event.rawPath, '/');
    assert.equal(event.rawQueryString, raw);
    assert.equal(event.queryStringParameters?.a, '1,2');
    assert.equal(event.queryStringParameters?.url, 'https://example.com/?a=1');
    assert.deepEqual(event.cookies, ['a=1', 'b=2']);
    assert.equal(event.headers['x-api-header-foo'], 'bar');
    assert.equal(event.headers.cookie, undefined);
    assert.equal(event.requestContext.http.method, 'GET');
    assert.equal(event.requestContext.http.sourceIp, '127.0.0.1');
  });

  test('request bodies arrive base64-encoded', async () => {
    seen = [];
    await fetch(`${base}/`, { method: 'POST', body: 'héllo' });
    assert.equal(seen[0]?.isBase64Encoded, true);
    assert.equal(Buffer.from(seen[0]?.body ?? '', 'base64').toString(), 'héllo');
  });

  test('status, headers, cookies and base64 bodies are written back', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
    answer = {
      statusCode: 201,
      headers: { 'Content-Type': 'image/png', 'x-custom': 'yes' },
      cookies: ['a=1; Path=/', 'b=2; HttpOnly'],
      body: png.toString('base64'),
      isBase64Encoded: true,
    };
    const response = await fetch(`${base}/`);
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.equal(response.headers.get('x-custom'), 'yes');
    assert.deepEqual(response.headers.getSetCookie(), ['a=1; Path=/', 'b=2; HttpOnly']);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), png);
  });

  test('a bare result is a 200 JSON body, as API Gateway treats it', async () => {
    answer = { hello: 'world' } as unknown as APIGatewayProxyResultV2;
    const response = await fetch(`${base}/`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { hello: 'world' });
  });
});
