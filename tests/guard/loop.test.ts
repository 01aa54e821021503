/**
 * Loop refusal (issue 11 item 3, issue 25): a Glance embed address named as a page's media (its og:image, the
 * docs' own recommendation, docs/parameters.md embed) is answered once, as a nested request; anything that would make Glance ask itself a
 * second time is refused at that first repeat, by the hop header every outbound request carries and by the
 * service's own public address. Counted at the test server: without the refusal each nested Glance request would
 * fetch the page again, without end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AddressPolicy, parseTarget } from '../../lib/fetch/index.ts';
import { GlanceError } from '../../lib/errors.ts';
import { png } from '../ping/fixtures.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, startService, type Service } from '../helpers/service.ts';

const attr = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

describe('loop refusal', () => {
  let site: TestServer;
  let glance: Service;
  /** Glance under a second name, so the own-address check does not apply and only the hop header can stop it. */
  let alias: string;
  const seen: Array<string | undefined> = [];
  /** `/source`'s image as a Glance embed address of this service: what a card's og:image names. */
  let embedded: string;
  const fetchesOf = (path: string, from: number): number => site.hits.slice(from).filter((hit) => hit === path).length;

  before(async () => {
    site = await startServer();
    glance = await startService();
    alias = glance.url.replace('127.0.0.1', 'localhost');
    const page = `${site.url}/loop`;
    site.route('/loop', (req, res) => {
      seen.push(req.headers['x-glance-hop'] as string | undefined);
      const image = `${alias}/?${q(page, 'embed=image.url')}`;
      const icon = `${glance.url}/?${q(page, 'embed=logo.url')}`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<title>loop</title><meta property="og:image" content="${attr(image)}"><link rel="icon" href="${attr(icon)}">`,
      );
    });
    site.route('/to-glance', (_req, res) => void res.writeHead(302, { location: `${alias}/?${q(page)}` }).end());
    site.route('/photo.png', (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png(64, 48)));
    site.route('/source', html('<title>source</title><meta property="og:image" content="/photo.png">'));
    embedded = `${glance.url}/?${q(`${site.url}/source`, 'embed=image.url')}`;
    const card = html(`<title>card</title><meta property="og:image" content="${attr(embedded)}">`);
    site.route('/card', card);
    site.route('/card-stranger', card);
  });
  after(async () => {
    await glance.close();
    await site.close();
  });

  test("a page whose og:image is this service's embed address previews with that image", async () => {
    const hits = site.hits.length;
    const { status, body } = await glance.json(q(`${site.url}/card`));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.data.image?.url, embedded, 'the page gave the embed address, and that is the image');
    assert.equal(body.data.image.type, 'png');
    assert.deepEqual([body.data.image.width, body.data.image.height], [64, 48], 'the 302 was followed to the file');
    assert.equal(fetchesOf('/source', hits), 1, 'the nested request fetched the source page once');
  });

  test('a request carrying a hop past the one nested level is refused with ELOOP (508) before any work', async () => {
    const hits = site.hits.length;
    for (const hop of ['2', '0', '1, 1', 'yes']) {
      const { status, body, headers } = await glance.json(q(`${site.url}/loop`), { headers: { 'x-glance-hop': hop } });
      assert.equal(status, 508, hop);
      assert.equal(body.code, 'ELOOP');
      assert.equal(body.status, 'error');
      assert.match(body.message, /x-glance-hop/);
      assert.match(headers.get('cache-control') ?? '', /no-store/);
    }
    assert.equal(site.hits.length, hits, 'the target was not fetched');
  });

  test("the service's own public address is refused as a target, under any path", async () => {
    const { status, body } = await glance.json(q(`${glance.url}/?${q(`${site.url}/loop`)}`));
    assert.equal(status, 508);
    assert.equal(body.code, 'ELOOP');
    assert.match(body.message, /own address/);
  });

  test('a page pointing Glance at itself (image, icon, redirect) is refused at the first repeat', async () => {
    seen.length = 0;
    const { status, body } = await glance.json(q(`${site.url}/loop`, 'force'));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.data.title, 'loop');
    // Each embed address was answered once, as a nested request that fetched the page and then named Glance
    // again (under the other name: refused there, 508; under its own: refused without a request): no field.
    assert.equal(body.data.image, null);
    assert.equal(body.data.logo, null);
    assert.deepEqual(seen, ['2', '2', '2'], 'the page was fetched by the request and by one nested request per embed address, never deeper');

    const nested = await glance.json(q(`${site.url}/loop`, 'embed=image.url'), { headers: { 'x-glance-hop': '1' } });
    assert.equal(nested.body.code, 'EINVALEMBED', 'the nested answer found no image: its own Glance request was refused');

    seen.length = 0;
    const redirected = await glance.json(q(`${site.url}/to-glance`, 'force'));
    assert.equal(redirected.body.statusCode, 508, 'the redirect to Glance reached a Glance that refused it');
    assert.deepEqual(seen, [], 'and the page was not fetched again');
  });

  test('a stranger sending the hop header gets less, never more, and changes no caller’s answer', async () => {
    const page = q(`${site.url}/card-stranger`);
    const nested = await glance.json(page, { headers: { 'x-glance-hop': '1' } });
    assert.equal(nested.status, 200);
    assert.equal(nested.body.data.image, null, 'a nested answer never has Glance answer again');
    // Neither its cached answer nor its cached ping result reaches a caller.
    const caller = await glance.json(page);
    assert.equal(caller.headers.get('x-cache-status'), 'MISS');
    assert.equal(caller.body.data.image?.url, embedded);

    const keyed = await startApp({ env: { GLANCE_API_KEYS: 'secret' } });
    try {
      const { status, body } = await keyed.json(page, { headers: { 'x-glance-hop': '1' } });
      assert.equal(status, 401, 'the key check still applies');
      assert.equal(body.code, 'EAUTH');
    } finally {
      await keyed.close();
    }
  });

  test('a page naming five distinct embed addresses of this service sets off at most two nested requests', async () => {
    // Each names a page that is not there, so each nested answer fails and the next candidate is tried.
    const embeds = [1, 2, 3, 4, 5].map((n) => `${glance.url}/?${q(`${site.url}/gone-${n}`, 'embed=image.url&force')}`);
    const [og, twitter, named, thumbnail, imageSrc] = embeds.map(attr);
    site.route(
      '/many',
      html(
        `<title>many</title><meta property="og:image" content="${og}"><meta name="twitter:image" content="${twitter}">` +
          `<meta name="image" content="${named}"><meta name="thumbnail" content="${thumbnail}"><link rel="image_src" href="${imageSrc}">`,
      ),
    );
    const hits = site.hits.length;
    // The image's candidates alone, so that no other field's probe takes one of the two.
    const { status, body } = await glance.json(q(`${site.url}/many`, 'ping.logo=false&ping.audio=false&ping.video=false'));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.data.image, null);
    const nested = site.hits.slice(hits).filter((hit) => hit.startsWith('/gone-'));
    assert.deepEqual(nested.sort(), ['/gone-1', '/gone-2'], 'the first two were answered as nested requests, the rest refused without one');
  });

  test('`force` in a nested request is ignored: its answer may come from the cache', async () => {
    const page = `${site.url}/source`;
    const first = await glance.json(q(page), { headers: { 'x-glance-hop': '1' } });
    assert.equal(first.status, 200);
    const hits = fetchesOf('/source', 0);
    const forced = await glance.json(q(page, 'force'), { headers: { 'x-glance-hop': '1' } });
    assert.equal(forced.status, 200);
    assert.equal(forced.headers.get('x-cache-status'), 'HIT');
    assert.equal(fetchesOf('/source', 0), hits, 'the page was not fetched again');
  });

  test('parseTarget refuses an own address whatever its default port spelling, unless the request is answered once', () => {
    const policy = AddressPolicy.fromSetting('', { own: ['https://glance.example'] });
    for (const url of ['https://glance.example/', 'https://GLANCE.example:443/?url=x', 'https://glance.example./']) {
      assert.throws(() => parseTarget(url, policy), (error: unknown) => error instanceof GlanceError && error.code === 'ELOOP', url);
      assert.doesNotThrow(() => parseTarget(url, policy, 'The image', '1'), url);
    }
    assert.equal(parseTarget('https://glance.example:8443/', policy).port, '8443');
    assert.equal(parseTarget('http://glance.example/', policy).protocol, 'http:');
  });
});

describe('a nested request and the local rate limit', () => {
  let site: TestServer;
  let glance: Service;
  before(async () => {
    site = await startServer();
    glance = await startService({ env: { GLANCE_RATE_LIMIT: '1', GLANCE_RATE_LIMIT_WINDOW: '1h' } });
    site.route('/photo.png', (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png(64, 48)));
    site.route('/source', html('<title>source</title><meta property="og:image" content="/photo.png">'));
    const embedded = `${glance.url}/?${q(`${site.url}/source`, 'embed=image.url')}`;
    site.route('/card', html(`<title>card</title><meta property="og:image" content="${attr(embedded)}">`));
  });
  after(async () => {
    await glance.close();
    await site.close();
  });

  test("is not counted again (its caller was), while a stranger's hop header is counted like any request", async () => {
    // The caller uses the address's one request; the nested one arrives from the same address, with the proof.
    const { status, body, headers } = await glance.json(q(`${site.url}/card`));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(headers.get('x-rate-limit-remaining'), '0');
    assert.equal(body.data.image?.type, 'png', 'the nested request was answered, not refused by the limit');
    const stranger = await glance.json(q(`${site.url}/source`), { headers: { 'x-glance-hop': '1', 'x-glance-nested': 'guess' } });
    assert.equal(stranger.status, 429);
    assert.equal(stranger.body.code, 'ERATE');
  });
});
