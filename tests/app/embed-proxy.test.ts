/**
 * `embed.proxy` (docs/CONTRACT.md §6): a third party's media answered by Glance itself, with the headers a
 * cross-origin `<img crossorigin>` or canvas needs, through the guarded fetcher and within a size limit. The
 * image host is a local server that sends no CORS header at all.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

const png = (width: number, height: number): Buffer => PNG.sync.write(new PNG({ width, height }));
const IMAGE = png(3, 2);
/** Bytes no signature names and no text: what a format Glance does not sniff (JPEG XL, say) looks like. */
const UNKNOWN_BINARY = Buffer.from([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00, 0xfe]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4"/></svg>';

const file =
  (body: Buffer | string, headers: Record<string, string>, status = 200) =>
  (_req: IncomingMessage, res: ServerResponse) =>
    void res.writeHead(status, headers).end(body);

/** A page whose og:image is `image` (a path on the same server, or an absolute URL). */
const pageOf = (image: string) => html(`<!doctype html><title>t</title><meta property="og:image" content="${image}">`);

describe('embed.proxy', () => {
  let site: TestServer;
  let service: Service;
  const seen: Record<string, IncomingMessage['headers']> = {};
  const remember = (name: string, route: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => {
    seen[name] = req.headers;
    route(req, res);
  };

  before(async () => {
    site = await startServer({
      '/image.png': remember('image', file(IMAGE, { 'content-type': 'image/png', 'cache-control': 'private' })),
      '/unlabelled': file(IMAGE, { 'content-type': 'application/octet-stream' }),
      '/labelled.jxl': file(UNKNOWN_BINARY, { 'content-type': 'image/jxl' }),
      '/mislabelled.svg': file(IMAGE, { 'content-type': 'image/svg+xml' }),
      '/logo.svg': file(SVG, { 'content-type': 'image/svg+xml' }),
      '/soft-404': file('<!doctype html><html><body>Not found</body></html>', { 'content-type': 'image/png' }),
      '/error.json': file('{"error":"no such image"}', { 'content-type': 'image/png' }),
      '/gone.png': file('gone', { 'content-type': 'text/plain' }, 404),
      '/empty.png': file('', { 'content-type': 'image/png' }),
      '/page': pageOf('/image.png'),
    });
    service = await startApp();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  /** The og:image of a page naming `path`, proxied; unpinged, so what the ping would drop reaches the proxy. */
  const proxied = (path: string) => {
    site.route(`/page${path}`, pageOf(path));
    return service.request(q(`${site.url}/page${path}`, 'ping=false&embed=image.url&embed.proxy'));
  };

  test('answers the bytes with their content type, CORS, CORP, nosniff, a sandboxing CSP and the ttl as s-maxage', async () => {
    const response = await service.request(q(`${site.url}/page`, 'embed=image.url&embed.proxy&ttl=1h'));
    assert.equal(response.status, 200);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), IMAGE);
    const headers = Object.fromEntries(response.headers);
    assert.equal(headers['content-type'], 'image/png');
    assert.equal(headers['access-control-allow-origin'], '*');
    assert.equal(headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.match(headers['content-security-policy'] ?? '', /(^|; )sandbox(;|$)/);
    assert.match(headers['content-security-policy'] ?? '', /default-src 'none'/);
    assert.equal(headers['cache-control'], 'public, max-age=0, s-maxage=3600');
    assert.equal(headers.location, undefined);
    assert.equal(headers['set-cookie'], undefined);
    assert.match(headers['server-timing'] ?? '', /(^|, )embed;dur=/);
  });

  test('without embed.proxy the same field is still a 302 to the third party', async () => {
    const response = await service.request(q(`${site.url}/page`, 'embed=image.url&ttl=1h'));
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), `${site.url}/image.png`);
  });

  test('a cached proxied answer is the same bytes, without asking the image host again', async () => {
    const query = q(`${site.url}/page`, 'embed=image.url&embed.proxy&cacheKey=cached');
    const first = await service.request(query);
    assert.equal(first.headers.get('x-cache-status'), 'MISS');
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const hits = site.hits.length;
    const second = await service.request(query);
    assert.equal(second.headers.get('x-cache-status'), 'HIT');
    assert.equal(second.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await second.arrayBuffer()), firstBytes);
    assert.deepEqual(firstBytes, IMAGE);
    assert.equal(site.hits.length, hits, 'nothing fetched for the hit');
  });

  test('the bytes decide the type: an unlabelled PNG is image/png, a PNG labelled SVG is not served as SVG', async () => {
    for (const path of ['/unlabelled', '/mislabelled.svg']) {
      const response = await proxied(path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'image/png', path);
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), IMAGE);
    }
  });

  test("a media label is kept for binary bytes Glance does not recognise", async () => {
    const response = await proxied('/labelled.jxl');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/jxl');
  });

  test('an SVG is served as image/svg+xml under the sandboxing CSP, so its script never runs', async () => {
    const response = await proxied('/logo.svg');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/svg+xml');
    assert.match(response.headers.get('content-security-policy') ?? '', /(^|; )sandbox(;|$)/);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(await response.text(), SVG);
  });

  for (const [path, what, answered] of [
    ['/soft-404', 'an HTML page labelled image/png', /answered an HTML page/],
    ['/error.json', 'a JSON error labelled image/png', /answered text labelled image\/png/],
    ['/gone.png', 'a 404', /answered HTTP 404/],
    ['/empty.png', 'an empty body', /answered an empty body/],
  ] as const) {
    test(`refuses ${what} with ENOTMEDIA in the error payload, never caching it at the edge`, async () => {
      const response = await proxied(path);
      assert.equal(response.status, 502);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = (await response.json()) as { status: string; code: string; message: string; data: Record<string, unknown> };
      assert.equal(body.status, 'error');
      assert.equal(body.code, 'ENOTMEDIA');
      assert.match(body.message, answered);
      assert.ok(body.message.includes(`${site.url}${path}`), body.message);
      assert.equal(typeof body.data['embed.proxy'], 'string');
    });
  }

  test('a field that holds no URL is EINVALEMBED; an absent one too', async () => {
    const title = await service.json(q(`${site.url}/page`, 'embed=title&embed.proxy'));
    assert.equal(title.status, 400);
    assert.equal(title.body.code, 'EINVALEMBED');
    assert.match(title.body.message, /`embed\.proxy` needs a field holding an http\(s\) URL/);
    const absent = await service.json(q(`${site.url}/page`, 'embed=video.url&embed.proxy'));
    assert.equal(absent.body.code, 'EINVALEMBED');
  });

  test("a custom rule's URL is proxied like a default field", async () => {
    const response = await service.request(q(`${site.url}/page`, 'meta=false&data.pic.selector=meta%5Bproperty%3D%22og%3Aimage%22%5D&data.pic.attr=content&data.pic.type=url&embed=pic&embed.proxy'));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), IMAGE);
  });

  test("the caller's credentials go to the page's own origin, never to another", async () => {
    // localhost and 127.0.0.1 are two origins of one server: the image on the other one must get no cookie.
    const other = site.url.replace('127.0.0.1', 'localhost');
    site.route('/elsewhere', pageOf(`${other}/image.png`));
    const headers = 'headers.cookie=session%3Dsecret&headers.authorization=Bearer%20t&headers.accept-language=fr';
    await service.request(q(`${site.url}/page`, `embed=image.url&embed.proxy&ping=false&${headers}`));
    assert.equal(seen.image?.cookie, 'session=secret');
    assert.equal(seen.image?.authorization, 'Bearer t');
    const response = await service.request(q(`${site.url}/elsewhere`, `embed=image.url&embed.proxy&ping=false&${headers}`));
    assert.equal(response.status, 200);
    assert.equal(seen.image?.host, `localhost:${site.port}`);
    assert.equal(seen.image?.cookie, undefined);
    assert.equal(seen.image?.authorization, undefined);
    assert.equal(seen.image?.['accept-language'], 'fr', 'preferences go everywhere');
    assert.equal(seen.image?.['x-glance-hop'], '1');
  });

  test('HEAD answers the headers of the proxied file without its bytes', async () => {
    const response = await service.request(q(`${site.url}/page`, 'embed=image.url&embed.proxy&cacheKey=head'), { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.equal((await response.arrayBuffer()).byteLength, 0);
  });
});

describe('embed.proxy: the size limit', () => {
  let site: TestServer;
  let service: Service;
  const big = Buffer.concat([IMAGE, Buffer.alloc(4096)]);
  before(async () => {
    site = await startServer({
      '/declared.png': file(big, { 'content-type': 'image/png' }),
      // Chunked: no content-length to refuse up front, so the limit is met while reading.
      '/streamed.png': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(big.subarray(0, 2000));
        res.end(big.subarray(2000));
      },
      '/fits.png': file(IMAGE, { 'content-type': 'image/png' }),
    });
    service = await startApp({ env: { GLANCE_EMBED_PROXY_MAX_BYTES: '2048' } });
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  for (const path of ['/declared.png', '/streamed.png']) {
    test(`a file over GLANCE_EMBED_PROXY_MAX_BYTES is ETOOLARGE naming the setting (${path.slice(1)})`, async () => {
      site.route('/page', pageOf(path));
      const { status, headers, body } = await service.json(q(`${site.url}/page`, `embed=image.url&embed.proxy&cacheKey=${path}`));
      assert.equal(status, 413);
      assert.equal(headers.get('cache-control'), 'no-store');
      assert.equal(body.code, 'ETOOLARGE');
      assert.match(body.message, /larger than the 2048-byte limit of `embed\.proxy` \(GLANCE_EMBED_PROXY_MAX_BYTES\)/);
      assert.match(body.message, /leave `embed\.proxy` out/);
      assert.equal(body.data['embed.proxy'], 'at most 2048 bytes');
    });
  }

  test('a file within it is answered', async () => {
    site.route('/page', pageOf('/fits.png'));
    const response = await service.request(q(`${site.url}/page`, 'embed=image.url&embed.proxy&cacheKey=fits'));
    assert.equal(response.status, 200);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), IMAGE);
  });
});

describe('embed.proxy: the address rules, exemption off', () => {
  let site: TestServer;
  let strict: Service;
  before(async () => {
    site = await startServer({
      '/page': pageOf('/to-loopback.png'),
      '/private-image': pageOf('http://127.0.0.1/secret.png'),
      '/to-loopback.png': (_req, res) => void res.writeHead(302, { location: `http://127.0.0.1:${site.port}/secret.png` }).end(),
      '/secret.png': file(IMAGE, { 'content-type': 'image/png' }),
    });
    // Only the name public.test is exempt (it resolves to the test server); 127.0.0.1 itself is not.
    strict = await startApp({ allowHosts: 'public.test', resolver: async () => [{ address: '127.0.0.1', family: 4 as const }] });
  });
  after(async () => {
    await strict.close();
    await site.close();
  });

  test('a media URL that redirects to a loopback address is refused at that hop: EFORBIDDENURL, nothing fetched from it', async () => {
    const { status, body } = await strict.json(q(`http://public.test:${site.port}/page`, 'embed=image.url&embed.proxy&ping=false'));
    assert.equal(status, 403, JSON.stringify(body));
    assert.equal(body.code, 'EFORBIDDENURL');
    assert.match(body.message, /redirected to/);
    assert.ok(site.hits.includes('/to-loopback.png'), 'the public hop was fetched');
    assert.equal(site.hits.includes('/secret.png'), false, 'the private one was not');
  });

  test('a media URL on a private address is refused before any request', async () => {
    const { status, body } = await strict.json(q(`http://public.test:${site.port}/private-image`, 'embed=image.url&embed.proxy&ping=false'));
    assert.equal(status, 403);
    assert.equal(body.code, 'EFORBIDDENURL');
    assert.equal(site.hits.includes('/secret.png'), false);
  });
});
