/**
 * The HTTP headers of every answer, exactly as @middy/http-cors and @middy/http-security-headers answered them
 * before the core took them over (recorded from the Lambda handler), driven through app.handle without a port.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createApp } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { joined } from '../../lib/text/pieces.ts';

const CORS = {
  'access-control-allow-headers': 'x-api-key, content-type',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, x-response-time, x-cache-status, x-cache-ttl, x-cache-expired-at, x-fetch-mode, x-fetch-time, server-timing, etag, x-rate-limit-limit, x-rate-limit-remaining, x-rate-limit-reset, retry-after',
  'access-control-max-age': '86400',
};

const SECURITY = {
  'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox; upgrade-insecure-requests",
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
};

describe('CORS and security headers in the core', () => {
  const app = createApp(
    loadConfig({ GLANCE_CACHE: 'off', GLANCE_STORAGE_DIR: join(tmpdir(), 'glance-headers-unused'), GLANCE_API_KEYS: 'the-key' }),
  );
  after(() => app.close());

  const request = (method: string, rawQueryString: string, headers: Record<string, string> = {}): ApiRequest => ({
    method,
    rawQueryString,
    headers,
    requestId: 'req-1',
    receivedAt: Date.now(),
  });

  /** The headers without the two whose values are timings. */
  const stable = (headers: Record<string, string>) => {
    const { 'x-response-time': time, 'server-timing': timing, ...rest } = headers;
    assert.match(time ?? '', /^\d+ms$/);
    assert.match(timing ?? '', /total;dur=/);
    return rest;
  };

  test('an error answer carries exactly its own headers, CORS and the security headers', async () => {
    const response = await app.handle(request('GET', 'url=file:///etc/passwd', { 'X-Api-Key': 'the-key', Origin: 'https://site.example' }));
    assert.equal(response.statusCode, 400);
    assert.deepEqual(stable(response.headers), {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      vary: 'x-api-key',
      'x-request-id': 'req-1',
      ...CORS,
      ...SECURITY,
    });
  });

  test('request header names are matched in any case (the key check reads x-api-key)', async () => {
    for (const name of ['x-api-key', 'X-Api-Key', 'X-API-KEY']) {
      const response = await app.handle(request('GET', 'url=file:///etc/passwd', { [name]: 'the-key' }));
      assert.equal(JSON.parse(joined(response.body)).code, 'EINVALURL', name);
    }
    const refused = await app.handle(request('GET', 'url=file:///etc/passwd', { 'X-Api-Key': 'wrong' }));
    assert.equal(JSON.parse(joined(refused.body)).code, 'EAUTH');
  });

  test('OPTIONS is a preflight: 204, the CORS headers alone, before the key check', async () => {
    const response = await app.handle(request('OPTIONS', '', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }));
    assert.deepEqual(response, { statusCode: 204, headers: CORS, body: '' });
  });

  test('HEAD answers the GET headers with an empty body; other methods are EMETHOD with allow', async () => {
    const head = await app.handle(request('HEAD', 'url=file:///etc/passwd', { 'x-api-key': 'the-key' }));
    const get = await app.handle(request('GET', 'url=file:///etc/passwd', { 'x-api-key': 'the-key' }));
    assert.equal(head.statusCode, 400);
    assert.equal(head.body, '');
    assert.deepEqual(stable(head.headers), stable(get.headers));

    const post = await app.handle(request('POST', ''));
    assert.equal(post.statusCode, 405);
    assert.deepEqual(stable(post.headers), {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      allow: 'GET, HEAD, OPTIONS',
      'x-request-id': 'req-1',
      ...CORS,
      ...SECURITY,
    });
  });
});
