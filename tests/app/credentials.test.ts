/**
 * The caller's credentials stay with the target's origin (issue 11 item 5), in the fetcher and in the browser: a
 * redirect to another origin drops them, and in the browser a third-party image or fetch never carries them. Every
 * request Glance sends carries the hop header, and adding it in the browser sets off no CORS preflight. Seen where
 * the requests land: two local servers, 127.0.0.1 (the target's origin) and localhost (another origin).
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { outgoingHeaders } from '../../lib/browser/intercept.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

const CREDENTIALS = 'headers.authorization=Bearer%20secret&headers.cookie=session%3Dsecret&headers.accept-language=fr';

describe('credentials stay with the target origin', () => {
  let target: TestServer;
  let other: TestServer;
  let service: Service;
  const seen: Seen[] = [];
  const record = (req: import('node:http').IncomingMessage) =>
    seen.push({ method: req.method ?? '', path: new URL(req.url ?? '', 'http://x').pathname, headers: req.headers });
  const at = (path: string) => seen.filter((request) => request.path === path);

  before(async () => {
    other = await startServer();
    target = await startServer();
    const elsewhere = `http://localhost:${other.port}`;
    target.route('/page', (req, res) => {
      record(req);
      html(`<title>creds</title><img src="/same.png"><img src="${elsewhere}/third.png">
<script>fetch('${elsewhere}/api').then((r) => r.text()).then((t) => { const p = document.createElement('p'); p.id = 'done'; p.textContent = t; document.body.append(p); })</script>`)(req, res);
    });
    target.route('/same.png', (req, res) => void (record(req), res.writeHead(404).end()));
    target.route('/redirect', (req, res) => void (record(req), res.writeHead(302, { location: `${elsewhere}/landing` }).end()));
    other.route('/third.png', (req, res) => void (record(req), res.writeHead(404).end()));
    other.route('/landing', (req, res) => void (record(req), html('<title>landed</title>')(req, res)));
    other.route('/api', (req, res) => {
      record(req);
      // Allows a simple cross-origin GET only: a preflight (OPTIONS) would find no CORS answer and fail the fetch.
      if (req.method === 'OPTIONS') return void res.writeHead(405).end();
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' }).end('fetched');
    });
    service = await startApp();
  });
  after(async () => {
    await service.close();
    await Promise.all([target.close(), other.close()]);
  });

  /** The redirect as `prerender` loads it: the first hop has the credentials, the other origin's none. */
  const redirectDrops = (prerender: boolean) => async () => {
    seen.length = 0;
    const { status, body } = await service.json(q(`${target.url}/redirect`, `${CREDENTIALS}&prerender=${prerender}&force`));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.data.title, 'landed');
    const [first] = at('/redirect');
    assert.equal(first?.headers.authorization, 'Bearer secret');
    assert.equal(first?.headers.cookie, 'session=secret');
    assert.equal(first?.headers['x-glance-hop'], '2');
    const [landing] = at('/landing');
    assert.ok(landing, 'the redirect was followed');
    assert.equal(landing.headers.authorization, undefined);
    assert.equal(landing.headers.cookie, undefined);
    assert.equal(landing.headers['accept-language'], 'fr');
    assert.equal(landing.headers['x-glance-hop'], '2');
  };

  test('fetcher: a redirect to another origin drops authorization and cookie, keeps accept-language', redirectDrops(false));

  test('fetcher: x-api-header-* values are target-only too', async () => {
    seen.length = 0;
    await service.json(q(`${target.url}/redirect`, 'prerender=false&force'), { headers: { 'x-api-header-x-token': 'tok' } });
    assert.equal(at('/redirect')[0]?.headers['x-token'], 'tok');
    assert.equal(at('/landing')[0]?.headers['x-token'], undefined);
  });

  test('browser: a redirect to another origin drops the credentials', { timeout: 30_000 }, redirectDrops(true));

  test('browser: third-party requests carry no credentials, all carry the hop header, and no preflight is caused', { timeout: 30_000 }, async () => {
    seen.length = 0;
    const { status, body } = await service.json(q(`${target.url}/page`, `${CREDENTIALS}&prerender=true&waitForSelector=%23done&force&adblock=false&ping=false`));
    assert.equal(status, 200, JSON.stringify(body));
    for (const path of ['/page', '/same.png']) {
      const [request] = at(path);
      assert.equal(request?.headers.authorization, 'Bearer secret', path);
      assert.equal(request?.headers.cookie, 'session=secret', path);
      assert.equal(request?.headers['x-glance-hop'], '2', path);
    }
    for (const path of ['/third.png', '/api']) {
      const requests = at(path);
      assert.ok(requests.length > 0, `${path} was requested`);
      for (const request of requests) {
        assert.equal(request.headers.authorization, undefined, path);
        assert.equal(request.headers.cookie, undefined, path);
        assert.equal(request.headers['x-glance-hop'], '2', path);
        assert.equal(request.headers['accept-language'], 'fr', path);
      }
    }
    assert.deepEqual(at('/api').map((request) => request.method), ['GET'], 'no CORS preflight');
  });

  test('outgoingHeaders: the page’s own header of the same name stays when its value differs', () => {
    const targetOnly = { authorization: 'Bearer secret' };
    assert.deepEqual(outgoingHeaders('https://api.example/', { authorization: 'Bearer page' }, 'https://t.example', targetOnly), {
      authorization: 'Bearer page',
      'x-glance-hop': '2',
    });
    assert.deepEqual(outgoingHeaders('https://api.example/', { authorization: 'Bearer secret' }, 'https://t.example', targetOnly), { 'x-glance-hop': '2' });
    assert.deepEqual(outgoingHeaders('https://t.example/x', {}, 'https://t.example', targetOnly), { authorization: 'Bearer secret', 'x-glance-hop': '2' });
  });
});
