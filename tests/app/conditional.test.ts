/**
 * The validators and per-request headers of answers (docs/parameters.md, Response headers): a strong etag of the body bytes,
 * If-None-Match answered 304 without a body, `vary` as the answer truly varies, a unique `x-request-id`, and what is
 * left of a cached answer's lifetime. Through the local service on a real socket, so the 304 is seen as sent.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../lib/app.ts';
import type { CacheEntry, CacheStore } from '../../lib/cache/index.ts';
import { loadConfig } from '../../lib/config.ts';
import { joined } from '../../lib/text/pieces.ts';
import { png } from '../ping/fixtures.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

/** The etag a body's bytes should have: their SHA-256, quoted. */
const etagOfBytes = (bytes: Buffer | string): string => `"${createHash('sha256').update(bytes).digest('base64url')}"`;

describe('etag, 304, vary, x-request-id, x-cache-expired-at', () => {
  let site: TestServer;
  let service: Service;
  let keyed: Service;
  let title = 'First edition';
  const changing: Route = (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${title}</title><p>Café ☕</p>`);
  before(async () => {
    site = await startServer({ '/news': changing, '/page': html('<title>Page</title><meta property="og:image" content="/i.png">'), '/i.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png(4, 4)) });
    service = await startService();
    keyed = await startService({ env: { GLANCE_API_KEYS: 'key-one' } });
  });
  after(async () => {
    await Promise.all([service.close(), keyed.close()]);
    await site.close();
  });

  test('an answer carries a strong etag of its bytes, the same on its cache hit', async () => {
    const first = await service.request(q(`${site.url}/news`, 'ttl=1h'));
    const bytes = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag');
    assert.equal(etag, etagOfBytes(bytes), 'the SHA-256 of the UTF-8 bytes sent');
    assert.equal(first.headers.get('x-cache-status'), 'MISS');
    const hit = await service.request(q(`${site.url}/news`, 'ttl=1h'));
    assert.equal(hit.headers.get('x-cache-status'), 'HIT');
    assert.equal(hit.headers.get('etag'), etag);
    assert.deepEqual(Buffer.from(await hit.arrayBuffer()), bytes);
  });

  test('If-None-Match naming the etag (or *, or W/ of it, or in a list): 304, no body, the validator and caching headers kept', async () => {
    const query = q(`${site.url}/news`, 'ttl=1h');
    const { headers } = await service.request(query);
    const etag = headers.get('etag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await service.request(query, { headers: { 'if-none-match': ifNoneMatch } });
      assert.equal(response.status, 304, ifNoneMatch);
      assert.equal(await response.text(), '');
      assert.equal(response.headers.get('etag'), etag);
      assert.equal(response.headers.get('content-length'), null, 'a 304 says nothing of a body it does not send');
      assert.equal(response.headers.get('content-type'), null);
      assert.match(response.headers.get('cache-control') ?? '', /^public, max-age=0, s-maxage=\d+$/);
      assert.equal(response.headers.get('x-cache-status'), 'HIT');
      assert.ok(response.headers.get('x-request-id'));
    }
    const head = await service.request(query, { method: 'HEAD', headers: { 'if-none-match': etag } });
    assert.equal(head.status, 304);
    const other = await service.request(query, { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(other.status, 200);
    assert.equal(etagOfBytes(Buffer.from(await other.arrayBuffer())), etag);
  });

  test('a changed answer has a new etag, and the old one no longer matches', async () => {
    const query = q(`${site.url}/news`, 'ttl=1h');
    const old = (await service.request(query)).headers.get('etag')!;
    title = 'Second edition';
    const renewed = await service.request(`${query}&force`, { headers: { 'if-none-match': old } });
    assert.equal(renewed.status, 200);
    assert.equal(((await renewed.json()) as { data: { title: string } }).data.title, 'Second edition');
    assert.notEqual(renewed.headers.get('etag'), old);
  });

  test('embeds: a field\'s text has the etag of its bytes; a redirect and a failure have none and are never 304', async () => {
    const text = await service.request(q(`${site.url}/page`, 'embed=title'));
    assert.equal(text.headers.get('etag'), etagOfBytes('Page'));
    const redirect = await service.request(q(`${site.url}/page`, 'embed=image.url'), { headers: { 'if-none-match': '*' } });
    assert.deepEqual([redirect.status, redirect.headers.get('etag')], [302, null]);
    const failure = await service.request('url=file%3A%2F%2F%2Fetc%2Fpasswd', { headers: { 'if-none-match': '*' } });
    assert.deepEqual([failure.status, failure.headers.get('etag')], [400, null]);
  });

  test('vary: nothing on an open API\'s answer; x-api-key where keys are required; accept at the bare address', async () => {
    assert.equal((await service.request(q(`${site.url}/page`))).headers.get('vary'), null);
    assert.equal((await keyed.request(q(`${site.url}/page`), { headers: { 'x-api-key': 'key-one' } })).headers.get('vary'), 'x-api-key');
    assert.equal((await keyed.request(q(`${site.url}/page`))).headers.get('vary'), 'x-api-key', 'the refusal too');
    assert.equal((await service.request('')).headers.get('vary'), 'accept');
    assert.equal((await service.request('', { headers: { accept: 'text/html' } })).headers.get('vary'), 'accept', 'the playground page');
  });

  test('x-request-id: one per request, never repeated', async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(async () => (await service.request(q(`${site.url}/page`))).headers.get('x-request-id')));
    for (const id of ids) assert.match(id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(new Set(ids).size, ids.length);
  });

  test('x-cache-expired-at: the whole ttl on a miss, less on a later hit', async () => {
    const miss = await service.request(q(`${site.url}/page`, 'ttl=2h&force'));
    assert.deepEqual([miss.headers.get('x-cache-status'), miss.headers.get('x-cache-expired-at')], ['BYPASS', '2h']);
    const hit = await service.request(q(`${site.url}/page`, 'ttl=2h'));
    assert.equal(hit.headers.get('x-cache-status'), 'HIT');
    assert.match(hit.headers.get('x-cache-expired-at') ?? '', /^1h 59m [\d.]+s$/);
  });
});

test('an answer cached before answers had etags gets one on its hit: the hash of its body', async () => {
  const body = '{"status":"success","data":{"title":"Old"}}';
  const entry: CacheEntry = { answer: { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: [body.slice(0, 10), body.slice(10)] }, createdAt: Date.now(), ttl: 3_600_000 };
  const store: CacheStore = { get: async () => entry, set: async () => undefined };
  const app = createApp(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1' }), { cacheStore: store });
  try {
    const response = await app.handle({ method: 'GET', rawQueryString: q('http://127.0.0.1:8080/never-fetched'), headers: {}, requestId: 'r', receivedAt: Date.now() });
    assert.equal(response.headers['x-cache-status'], 'HIT', joined(response.body));
    assert.equal(joined(response.body), body);
    assert.equal(response.headers.etag, etagOfBytes(body));
  } finally {
    await app.close();
  }
});
