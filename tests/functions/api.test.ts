/** The Lambda handler invoked as Lambda would, offline: Powertools wired in, no AWS reached. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createHandler } from '../../functions/api.ts';
import { loadConfig } from '../../lib/config.ts';
import { startServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';

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

test("the invocation's remaining time bounds the request: ETIMEOUT before Lambda would cut it off", async () => {
  const site = await startServer({ '/never': () => undefined });
  const handler = createHandler(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off' }));
  const started = Date.now();
  const result = (await handler(event(q(`${site.url}/never`)), { ...context, getRemainingTimeInMillis: () => 2_000 })) as APIGatewayProxyStructuredResultV2;
  const took = Date.now() - started;
  await site.close();
  assert.equal(result.statusCode, 504);
  assert.equal(JSON.parse(String(result.body)).code, 'ETIMEOUT');
  assert.ok(took >= 1_000 && took < 2_000, `took ${took} ms`);
});

test('OPTIONS is answered as a preflight before the app runs', async () => {
  const handler = createHandler(loadConfig({}));
  const result = (await handler(event('', 'OPTIONS'), context)) as APIGatewayProxyStructuredResultV2;
  assert.equal(result.statusCode, 204);
});
