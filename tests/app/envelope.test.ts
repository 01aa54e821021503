import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { mp3, mp4, png } from '../ping/fixtures.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

const ARTICLE = `<!doctype html><html lang="en-GB"><head>
<title>Fallback title</title>
<meta property="og:title" content="The &amp; Article">
<meta property="og:description" content="  A   description\n of the article. ">
<meta property="og:image" content="/img/cover.png">
<meta property="og:site_name" content="Example News">
<meta name="author" content="Jane Doe">
<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">
<link rel="canonical" href="https://news.example/article">
<link rel="icon" href="/favicon-32.png" sizes="32x32">
</head><body><h1>Heading</h1><video src="/clip.mp4"></video><audio src="/talk.mp3"></audio></body></html>`;

const asset =
  (type: string, body: Buffer): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) }).end(body);

describe('the JSON envelope (docs/CONTRACT.md §3)', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/article': html(ARTICLE, { 'x-target': 'yes' }),
      '/moved': (_req, res) => void res.writeHead(301, { location: '/article' }).end(),
      '/missing': html('<title>Nothing here</title>', {}, 404),
      '/photo.png': asset('image/png', png(300, 200)),
      '/img/cover.png': asset('image/png', png(1200, 630)),
      '/favicon-32.png': asset('image/png', png(32, 32)),
      '/clip.mp4': asset('video/mp4', mp4(12, { width: 640, height: 360 })),
      '/talk.mp3': asset('audio/mpeg', mp3(100)),
      '/data.json': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
    });
    service = await startApp();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('answers every default field, normalised, with the target status, redirects and headers', async () => {
    const { status, headers, body } = await service.json(q(`${site.url}/moved`));
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(body.status, 'success');
    assert.equal(body.statusCode, 200);
    assert.deepEqual(body.redirects, [{ statusCode: 301, url: `${site.url}/article` }]);
    assert.equal(body.headers['x-target'], 'yes');
    assert.deepEqual(Object.keys(body.data).sort(), ['author', 'date', 'description', 'image', 'lang', 'logo', 'publisher', 'title', 'url']);
    assert.equal(body.data.title, 'The & Article');
    assert.equal(body.data.description, 'A description of the article.');
    assert.equal(body.data.lang, 'en');
    assert.equal(body.data.author, 'Jane Doe');
    assert.equal(body.data.publisher, 'Example News');
    assert.equal(body.data.date, '2024-03-05T09:30:00.000+01:00');
    assert.equal(body.data.url, 'https://news.example/article');
    const cover = png(1200, 630).length;
    assert.deepEqual(body.data.image, { url: `${site.url}/img/cover.png`, type: 'png', size: cover, size_pretty: `${Number((cover / 1000).toFixed(2))} kB`, width: 1200, height: 630 });
    assert.equal(body.data.logo.url, `${site.url}/favicon-32.png`);
    assert.deepEqual([body.data.logo.width, body.data.logo.height], [32, 32]);
  });

  test('sets the contract headers: request id, timings, fetch mode, caching, CORS, embeddable security headers', async () => {
    const response = await service.request(q(`${site.url}/article`, 'ttl=1h&staleTtl=10m'));
    await response.arrayBuffer();
    assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.match(response.headers.get('x-response-time') ?? '', /^\d+ms$/);
    assert.match(response.headers.get('x-fetch-time') ?? '', /^\d+ms$/);
    assert.equal(response.headers.get('x-fetch-mode'), 'fetch');
    assert.match(response.headers.get('server-timing') ?? '', /fetch;dur=[\d.]+, extract;dur=[\d.]+, ping;dur=[\d.]+, total;dur=/);
    // Fresh at the edge until staleTtl, then served stale while revalidating until ttl (RFC 5861).
    assert.equal(response.headers.get('cache-control'), 'public, max-age=0, s-maxage=600, stale-while-revalidate=3000');
    assert.equal(response.headers.get('x-cache-status'), 'MISS');
    assert.equal(response.headers.get('x-cache-ttl'), '3600000');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /x-fetch-mode/);
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  });

  test('audio and video are added on request, pinged, with their durations', async () => {
    const { body } = await service.json(q(`${site.url}/article`, 'audio&video=true'));
    assert.equal(body.data.audio.url, `${site.url}/talk.mp3`);
    assert.equal(body.data.audio.type, 'mp3');
    assert.ok(body.data.audio.duration > 0);
    assert.equal(body.data.video.url, `${site.url}/clip.mp4`);
    assert.equal(body.data.video.duration, 12);
    assert.deepEqual([body.data.video.width, body.data.video.height], [640, 360]);
  });

  test('ping=false keeps the raw extracted URLs, typed by extension', async () => {
    const { body } = await service.json(q(`${site.url}/article`, 'audio&video&ping=false'));
    assert.deepEqual(body.data.image, { url: `${site.url}/img/cover.png`, type: 'png' });
    assert.deepEqual(body.data.audio, { url: `${site.url}/talk.mp3`, type: 'mp3' });
    assert.deepEqual(body.data.video, { url: `${site.url}/clip.mp4`, type: 'mp4' });
  });

  test('meta=false skips the fetch; meta.<field> selects; filter keeps paths', async () => {
    const before = site.hits.length;
    const skipped = await service.json(q(`${site.url}/article`, 'meta=false'));
    assert.equal(skipped.status, 200);
    assert.deepEqual(skipped.body.data, {});
    assert.equal(skipped.headers.get('x-fetch-mode'), 'skipped');
    assert.equal(site.hits.length, before, 'meta=false must not fetch the target');

    const only = await service.json(q(`${site.url}/article`, 'meta.title=true&meta.lang=true'));
    assert.deepEqual(only.body.data, { title: 'The & Article', lang: 'en' });
    const without = await service.json(q(`${site.url}/article`, 'meta.image=false'));
    assert.equal('image' in without.body.data, false);
    assert.equal(without.body.data.title, 'The & Article');

    const filtered = await service.json(q(`${site.url}/article`, 'filter=title,image.url'));
    assert.deepEqual(filtered.body.data, { title: 'The & Article', image: { url: `${site.url}/img/cover.png` } });
    assert.equal(filtered.headers.get('x-fetch-mode'), 'fetch');
  });

  test('a 404 page is still a success, carrying the target status', async () => {
    const { status, body } = await service.json(q(`${site.url}/missing`));
    assert.equal(status, 200);
    assert.equal(body.status, 'success');
    assert.equal(body.statusCode, 404);
    assert.equal(body.data.title, 'Nothing here');
  });

  test('a direct link to an image answers with image set to it; other types with nulls', async () => {
    const image = await service.json(q(`${site.url}/photo.png`));
    assert.equal(image.body.data.image.url, `${site.url}/photo.png`);
    assert.deepEqual([image.body.data.image.type, image.body.data.image.width, image.body.data.image.height], ['png', 300, 200]);
    assert.equal(image.body.data.title, null);
    assert.equal(image.body.data.url, `${site.url}/photo.png`);
    const other = await service.json(q(`${site.url}/data.json`));
    assert.equal(other.status, 200);
    assert.equal(other.body.data.title, null);
    assert.equal(other.body.data.image, null);
  });

  test('embed answers the field itself: 302 for URLs, text for strings, JSON for objects, EINVALEMBED for absent', async () => {
    const redirect = await service.request(q(`${site.url}/article`, 'embed=image.url'));
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), `${site.url}/img/cover.png`);
    assert.match(redirect.headers.get('cache-control') ?? '', /s-maxage=86400/);

    const text = await service.request(q(`${site.url}/article`, 'embed=title'));
    assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await text.text(), 'The & Article');

    const object = await service.json(q(`${site.url}/article`, 'embed=image'));
    assert.equal(object.body.url, `${site.url}/img/cover.png`);
    assert.equal(object.body.width, 1200);

    const absent = await service.json(q(`${site.url}/article`, 'embed=video.url'));
    assert.equal(absent.status, 400);
    assert.equal(absent.body.code, 'EINVALEMBED');
  });

  test('HEAD answers the same headers without a body; OPTIONS is a CORS preflight; other methods 405', async () => {
    const head = await service.request(q(`${site.url}/article`), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal((await head.arrayBuffer()).byteLength, 0);

    const preflight = await service.request(q(`${site.url}/article`), {
      method: 'OPTIONS',
      headers: { origin: 'https://blog.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);

    const post = await service.json(q(`${site.url}/article`), { method: 'POST', body: 'x' });
    assert.equal(post.status, 405);
    assert.equal(post.body.code, 'EMETHOD');
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });
});
