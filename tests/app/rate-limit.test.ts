/**
 * The local service's optional per-client rate limit (docs/parameters.md, Rate limit): `429 ERATE` with Microlink's headers past
 * the limit, counted per valid key or else per address, on a clock the tests move instead of waiting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApp, type App } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import type { ApiResponse } from '../../lib/http/types.ts';
import { joined } from '../../lib/text/pieces.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

/** A window's start (windows are aligned on the clock: 1m here). */
const START = 1_700_000_040_000;
const NOT_A_TARGET = 'url=file%3A%2F%2F%2Fetc%2Fpasswd';

const codeOf = (response: ApiResponse): string | undefined => (JSON.parse(joined(response.body)) as { code?: string }).code;

function limitedApp(env: Record<string, string> = {}) {
  const clock = { now: START };
  const app = createApp(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off', GLANCE_RATE_LIMIT: '2', ...env }), {
    cacheStore: null,
    now: () => clock.now,
  });
  const ask = (from: string, headers: Record<string, string> = {}, query = NOT_A_TARGET, method = 'GET') =>
    app.handle({ method, rawQueryString: query, headers, clientAddress: from, requestId: 'r', receivedAt: Date.now() });
  return { app, clock, ask };
}

describe('per-client rate limit, keyed API', () => {
  const { app, clock, ask } = limitedApp({ GLANCE_API_KEYS: 'key-one,key-two' });
  after(() => app.close());

  test('N requests pass with the count in their headers, the next is 429 ERATE with Microlink\'s headers and payload', async () => {
    const first = await ask('192.0.2.1');
    const second = await ask('192.0.2.1');
    assert.deepEqual([codeOf(first), first.headers['x-rate-limit-remaining'], codeOf(second), second.headers['x-rate-limit-remaining']], ['EAUTH', '1', 'EAUTH', '0']);
    assert.equal(first.headers['x-rate-limit-limit'], '2');
    assert.equal(first.headers['x-rate-limit-reset'], String((START + 60_000) / 1000));
    const refused = await ask('192.0.2.1');
    assert.equal(refused.statusCode, 429);
    const payload = JSON.parse(joined(refused.body));
    assert.deepEqual({ ...payload, message: undefined }, { status: 'fail', code: 'ERATE', message: undefined, more: 'https://github.com/glance-api/glance/blob/HEAD/docs/errors.md', url: null, data: {} });
    assert.match(payload.message, /limit is 2 every 1m\. Retry in 60 seconds/);
    assert.deepEqual(
      [refused.headers['x-rate-limit-limit'], refused.headers['x-rate-limit-remaining'], refused.headers['retry-after'], refused.headers['cache-control']],
      ['2', '0', '60', 'no-store'],
    );
  });

  test('another address is unaffected', async () => {
    const other = await ask('192.0.2.2');
    assert.deepEqual([codeOf(other), other.headers['x-rate-limit-remaining']], ['EAUTH', '1']);
  });

  test('a valid key is counted as itself, from any address; a wrong key is counted against its address', async () => {
    // 192.0.2.1 has used its count: with a valid key it is another client.
    assert.equal(codeOf(await ask('192.0.2.1', { 'x-api-key': 'key-one' })), 'EINVALURL');
    assert.equal(codeOf(await ask('198.51.100.7', { 'x-api-key': 'key-one' })), 'EINVALURL');
    assert.equal(codeOf(await ask('198.51.100.8', { 'x-api-key': 'key-one' })), 'ERATE', 'the key\'s count, shared by its addresses');
    assert.equal(codeOf(await ask('198.51.100.8', { 'x-api-key': 'key-two' })), 'EINVALURL', 'another key is unaffected');
    assert.equal(codeOf(await ask('192.0.2.2', { 'x-api-key': 'guess' })), 'EAUTH');
    assert.equal(codeOf(await ask('192.0.2.2', { 'x-api-key': 'another-guess' })), 'ERATE', 'guesses use up the address\'s count');
  });

  test('the next window starts every count again', async () => {
    clock.now = START + 60_000;
    const again = await ask('192.0.2.1');
    assert.deepEqual([codeOf(again), again.headers['x-rate-limit-remaining']], ['EAUTH', '1']);
  });
});

describe('per-client rate limit, open API', () => {
  test('an invented x-api-key is no way around the address\'s count', async () => {
    const { app, ask } = limitedApp();
    try {
      await ask('192.0.2.1', { 'x-api-key': 'a' });
      await ask('192.0.2.1', { 'x-api-key': 'b' });
      assert.equal(codeOf(await ask('192.0.2.1', { 'x-api-key': 'c' })), 'ERATE');
    } finally {
      await app.close();
    }
  });

  test('X-Forwarded-For counts only with GLANCE_TRUST_PROXY_HOPS, as the proxy wrote it', async () => {
    const direct = limitedApp();
    const proxied = limitedApp({ GLANCE_TRUST_PROXY_HOPS: '1' });
    try {
      const forged = (address: string) => ({ 'x-forwarded-for': address });
      await direct.ask('192.0.2.1', forged('203.0.113.1'));
      await direct.ask('192.0.2.1', forged('203.0.113.2'));
      assert.equal(codeOf(await direct.ask('192.0.2.1', forged('203.0.113.3'))), 'ERATE', 'a caller cannot pick its address');
      await proxied.ask('10.0.0.2', forged('203.0.113.1'));
      await proxied.ask('10.0.0.2', forged('203.0.113.1'));
      assert.equal(codeOf(await proxied.ask('10.0.0.2', forged('203.0.113.1'))), 'ERATE');
      assert.equal(codeOf(await proxied.ask('10.0.0.2', forged('203.0.113.2'))), 'EINVALURL', 'behind the proxy, each client its own count');
      assert.equal(codeOf(await proxied.ask('10.0.0.2', forged('203.0.113.2, 203.0.113.1'))), 'ERATE', 'only the entry the proxy appended is believed');
    } finally {
      await Promise.all([direct.app.close(), proxied.app.close()]);
    }
  });

  test('the preflight and the playground page are not counted, nor answered with the headers', async () => {
    const { app, ask } = limitedApp();
    try {
      for (let i = 0; i < 3; i++) {
        const page = await ask('192.0.2.1', { accept: 'text/html' }, '');
        assert.equal(page.statusCode, 200);
        assert.equal(page.headers['x-rate-limit-limit'], undefined);
        assert.equal((await ask('192.0.2.1', {}, NOT_A_TARGET, 'OPTIONS')).statusCode, 204);
      }
      assert.equal((await ask('192.0.2.1')).headers['x-rate-limit-remaining'], '1');
    } finally {
      await app.close();
    }
  });

  test('off by default: no count, no headers', async () => {
    const app: App = createApp(loadConfig({ GLANCE_CACHE: 'off' }), { cacheStore: null });
    try {
      for (let i = 0; i < 5; i++) {
        const response = await app.handle({ method: 'GET', rawQueryString: NOT_A_TARGET, headers: {}, clientAddress: '192.0.2.1', requestId: 'r', receivedAt: Date.now() });
        assert.deepEqual([codeOf(response), response.headers['x-rate-limit-limit']], ['EINVALURL', undefined]);
      }
    } finally {
      await app.close();
    }
  });
});

describe('per-client rate limit on the local service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({ '/': html('<title>Counted</title>') });
    service = await startService({ env: { GLANCE_RATE_LIMIT: '2', GLANCE_RATE_LIMIT_WINDOW: '1h' } });
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('answers are counted by the socket\'s peer; /health and /openapi.json are not counted', async () => {
    for (const path of ['/health', '/openapi.json', '/health']) assert.equal((await fetch(`${service.url}${path}`)).status, 200);
    const answer = await service.request(q(`${site.url}/`));
    assert.deepEqual([answer.status, answer.headers.get('x-rate-limit-remaining')], [200, '1']);
    await service.request(q(`${site.url}/`));
    const refused = await service.json(q(`${site.url}/`));
    assert.deepEqual([refused.status, refused.body.code], [429, 'ERATE']);
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /x-rate-limit-remaining.*retry-after/);
  });
});
