/**
 * Loop refusal (issue 11 item 3): a page that points Glance at its own endpoint is refused at the first hop, by the
 * hop header every outbound request carries and by the service's own public address. Counted at the test server:
 * without the refusal each nested Glance request would fetch the page again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AddressPolicy, parseTarget } from '../../lib/fetch/index.ts';
import { GlanceError } from '../../lib/errors.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

describe('loop refusal', () => {
  let site: TestServer;
  let glance: Service;
  /** Glance under a second name, so the own-address check does not apply and only the hop header can stop it. */
  let alias: string;
  const seen: Array<string | undefined> = [];

  before(async () => {
    site = await startServer();
    glance = await startService();
    alias = glance.url.replace('127.0.0.1', 'localhost');
    const page = `${site.url}/loop`;
    site.route('/loop', (req, res) => {
      seen.push(req.headers['x-glance-hop'] as string | undefined);
      const self = `${alias}/?${q(page, 'embed=image.url')}`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<title>loop</title><meta property="og:image" content="${self.replace(/&/g, '&amp;')}"><link rel="icon" href="${glance.url}/?${q(page).replace(/&/g, '&amp;')}">`,
      );
    });
    site.route('/to-glance', (_req, res) => void res.writeHead(302, { location: `${alias}/?${q(page)}` }).end());
  });
  after(async () => {
    await glance.close();
    await site.close();
  });

  test('a request carrying the hop header is refused with ELOOP (508) before any work', async () => {
    const hits = site.hits.length;
    const { status, body, headers } = await glance.json(q(`${site.url}/loop`), { headers: { 'x-glance-hop': '1' } });
    assert.equal(status, 508);
    assert.equal(body.code, 'ELOOP');
    assert.equal(body.status, 'error');
    assert.match(body.message, /x-glance-hop/);
    assert.match(headers.get('cache-control') ?? '', /no-store/);
    assert.equal(site.hits.length, hits, 'the target was not fetched');
  });

  test("the service's own public address is refused as a target, under any path", async () => {
    const { status, body } = await glance.json(q(`${glance.url}/?${q(`${site.url}/loop`)}`));
    assert.equal(status, 508);
    assert.equal(body.code, 'ELOOP');
    assert.match(body.message, /own address/);
  });

  test('a page pointing Glance at itself (image, icon, redirect) is refused at the first hop', async () => {
    seen.length = 0;
    const hits = site.hits.length;
    const { status, body } = await glance.json(q(`${site.url}/loop`, 'force'));
    assert.equal(status, 200, JSON.stringify(body));
    // The image named Glance under another name: that request reached Glance and was refused (ELOOP), so the
    // image is unreachable; the icon named Glance's own address and was never requested.
    assert.equal(body.data.image, null);
    assert.equal(body.data.title, 'loop');
    assert.deepEqual(seen, ['1'], 'the page was fetched once, by Glance, with the hop header: no nested request fetched it');
    const after = site.hits.slice(hits).filter((hit) => hit.startsWith('/loop'));
    assert.equal(after.length, 1);

    const redirected = await glance.json(q(`${site.url}/to-glance`, 'force'));
    assert.equal(redirected.body.statusCode, 508, 'the redirect to Glance reached a Glance that refused it');
    assert.deepEqual(seen, ['1'], 'and the page was not fetched again');
  });

  test('parseTarget refuses an own address whatever its default port spelling', () => {
    const policy = AddressPolicy.fromSetting('', { own: ['https://glance.example'] });
    for (const url of ['https://glance.example/', 'https://GLANCE.example:443/?url=x', 'https://glance.example./']) {
      assert.throws(() => parseTarget(url, policy), (error: unknown) => error instanceof GlanceError && error.code === 'ELOOP', url);
    }
    assert.equal(parseTarget('https://glance.example:8443/', policy).port, '8443');
    assert.equal(parseTarget('http://glance.example/', policy).protocol, 'http:');
  });
});
