/**
 * The local service end to end through a real socket: node:http → the core → node:http, what only a socket shows
 * (lengths, HEAD, other paths, long request lines), and graceful shutdown.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLocalServer, type LocalServer } from '../../functions/local.ts';
import { createApp, type App } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

describe('local service over a socket', () => {
  let site: TestServer;
  let service: Service;
  let seen: Record<string, string | string[] | undefined> = {};
  before(async () => {
    site = await startServer({
      '/': html('<title>over the wire</title>'),
      // Over the size written in one go, with surrogate pairs at odd offsets (a piece's bound may fall on one).
      '/long': html(`<title>long</title><pre>a${'😀é'.repeat(70_000)}</pre>`),
      '/echo': (req, res) => {
        seen = req.headers;
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>echo</title>');
      },
    });
    service = await startService();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('the query string reaches the core exactly as sent, and x-api-header-* reaches the target', async () => {
    const raw = `url=${encodeURIComponent(`${site.url}/echo?a=1&b=%2F`)}&meta.title=true&force`;
    const { status, body } = await service.json(raw, { headers: { 'X-Api-Header-Accept-Language': 'fr-CH' } });
    assert.equal(status, 200);
    assert.equal(body.data.title, 'echo');
    assert.equal(site.hits.at(-1), '/echo?a=1&b=%2F');
    assert.equal(seen['accept-language'], 'fr-CH');
  });

  test('status, headers and an exact content-length are written back', async () => {
    const response = await service.request(q(`${site.url}/`));
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(response.headers.get('content-length'), String(body.length));
    assert.equal(JSON.parse(body.toString()).data.title, 'over the wire');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
  });

  test('a long answer reaches the client whole, byte for byte, with its exact content-length', async () => {
    const response = await fetch(`${service.url}/?${q(`${site.url}/long`, 'data.text.selector=pre&data.text.attr=text')}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200);
    assert.equal(Number(response.headers.get('content-length')), bytes.length);
    const { data } = JSON.parse(bytes.toString('utf8')) as { data: { text: string } };
    assert.equal(data.text, `a${'😀é'.repeat(70_000)}`);
  });

  test('HEAD has no body; OPTIONS is a preflight; POST with a body is EMETHOD', async () => {
    const head = await service.request(q(`${site.url}/`), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal((await head.arrayBuffer()).byteLength, 0);

    const preflight = await service.request(q(`${site.url}/`), {
      method: 'OPTIONS',
      headers: { origin: 'https://blog.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);

    const post = await service.json(q(`${site.url}/`), { method: 'POST', body: 'x'.repeat(64 * 1024) });
    assert.equal(post.status, 405);
    assert.equal(post.body.code, 'EMETHOD');
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  test('/health answers 200 ok, never cached, without doing any work', async () => {
    const response = await fetch(`${service.url}/health`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await response.json(), { status: 'ok' });
  });

  test('paths other than / (and /mcp) are not routed, as behind API Gateway', async () => {
    const response = await fetch(`${service.url}/other?${q(`${site.url}/`)}`);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { message: 'Not Found' });
  });

  test('a 20 kB query string is refused by the core (EINVALQUERY), not by node (431)', async () => {
    const { status, body } = await service.json(q(`${site.url}/`, `junk=${'x'.repeat(20 * 1024)}`));
    assert.equal(status, 400);
    assert.equal(body.code, 'EINVALQUERY');
  });
});

describe('graceful shutdown', () => {
  const SLOW_MS = 400;
  let site: TestServer;
  let dir: string;
  before(async () => {
    site = await startServer({
      '/slow': async (_req, res) => {
        await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>slow but answered</title>');
      },
    });
    dir = await mkdtemp(join(tmpdir(), 'glance-shutdown-'));
  });
  after(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A real app whose answers and close() are noted, to see in which order the service gets to them. */
  async function listen(graceMs: number): Promise<{ local: LocalServer; url: string; events: string[] }> {
    const events: string[] = [];
    const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off', GLANCE_STORAGE_DIR: dir });
    const app = createApp(config);
    const noted: App = {
      prepare: () => app.prepare(),
      loadAdblockEngine: () => app.loadAdblockEngine(),
      warmBrowser: () => app.warmBrowser(),
      handle: async (request, origin) => {
        const response = await app.handle(request, origin);
        events.push('handled');
        return response;
      },
      close: async () => {
        events.push('app closed');
        await app.close();
      },
    };
    const local = createLocalServer(noted, { graceMs });
    await new Promise<void>((resolve) => local.server.listen(0, '127.0.0.1', resolve));
    return { local, url: `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`, events };
  }

  const untilHit = async (path: string) => {
    for (let i = 0; i < 200 && !site.hits.includes(path); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(site.hits.includes(path), `${path} was requested`);
  };

  test('a request in flight is still answered; new connections are refused; the app closes after', async () => {
    const { local, url, events } = await listen(10_000);
    const slow = fetch(`${url}/?${q(`${site.url}/slow?in-flight`)}`).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { data: { title: string } },
    }));
    await untilHit('/slow?in-flight');
    const stopped = local.shutdown();
    await assert.rejects(fetch(`${url}/?${q(`${site.url}/slow?late`)}`), (error: Error & { cause?: { code?: string } }) => {
      assert.equal(error.cause?.code, 'ECONNREFUSED');
      return true;
    });
    const { status, body } = await slow;
    assert.equal(status, 200);
    assert.equal(body.data.title, 'slow but answered');
    await stopped;
    assert.deepEqual(events, ['handled', 'app closed']);
    assert.equal(site.hits.includes('/slow?late'), false);
    assert.equal(local.server.listening, false);
  });

  test('past the grace period, a request still running is answered 503 EBUSY (never reset) and the app closes anyway', async () => {
    const { local, url, events } = await listen(50);
    const slow = fetch(`${url}/?${q(`${site.url}/slow?cut`)}`);
    await untilHit('/slow?cut');
    const start = Date.now();
    await local.shutdown();
    assert.ok(Date.now() - start < SLOW_MS, `shutdown took ${Date.now() - start} ms`);
    assert.equal(events.at(-1), 'app closed');
    const answer = await slow;
    assert.equal(answer.status, 503);
    assert.equal(((await answer.json()) as { code: string }).code, 'EBUSY');
  });
});
