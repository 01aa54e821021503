/** Invoking a built Lambda bundle offline: API Gateway v2 events, a Lambda context, and a copy of the bundle folder. */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export const lambdaContext = {
  awsRequestId: 'infra-test',
  functionName: 'test-glance-api',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:test-glance-api',
  memoryLimitInMB: '2048',
  logGroupName: '/aws/lambda/test-glance-api',
  logStreamName: 'infra-test',
  callbackWaitsForEmptyEventLoop: false,
  getRemainingTimeInMillis: () => 30_000,
} as Context;

/** What API Gateway's HTTP API sends for `GET /?<rawQueryString>` (payload format 2.0). */
export const apiEvent = (rawQueryString: string, method = 'GET'): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: `${method} /`,
    rawPath: '/',
    rawQueryString,
    headers: { 'user-agent': 'infra-test', host: 'abc123.execute-api.us-east-1.amazonaws.com' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.us-east-1.amazonaws.com',
      requestId: `apigw-${rawQueryString.length}`,
      routeKey: `${method} /`,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
      http: { method, path: '/', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'infra-test' },
    },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

/** Folders above `dir` holding a node_modules that an import from `dir` could fall back on. */
export function outsideModules(dir: string): string[] {
  const found: string[] = [];
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    if (existsSync(join(parent, 'node_modules'))) found.push(parent);
    if (parent === dirname(parent)) return found;
  }
}

/**
 * A copy of `dir` as `<new temp folder>/root` (the caller removes the temp folder). There, unlike inside this
 * checkout, no node_modules above it can satisfy an import the bundle forgot to ship: what imports there, imports
 * in Lambda.
 */
export function isolate(dir: string, prefix: string, filter?: (source: string) => boolean): string {
  const parent = mkdtempSync(join(tmpdir(), prefix));
  try {
    cpSync(dir, join(parent, 'root'), { recursive: true, filter });
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw error;
  }
  return join(parent, 'root');
}
