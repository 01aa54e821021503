/**
 * `iframe` end to end through the local service: oEmbed discovery (JSON and XML endpoints served here), a
 * registered provider (a registry passed to the service, its endpoint served here), sizes forwarded, and
 * endpoints on refused addresses never asked.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const WIDGET = 'https://platform.example/widgets.js';
const TWEET = `<blockquote class="post"><p>Hello</p></blockquote>\n<script async src="${WIDGET}" charset="utf-8"></script>`;

const json = (body: unknown) => (_req: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Echoes the consumer parameters it was sent in the markup, so a test can see what was forwarded. */
const echo = (req: IncomingMessage, res: ServerResponse) => {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const width = query.get('maxwidth') ?? 'none';
  const height = query.get('maxheight') ?? 'none';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(
    JSON.stringify({
      version: '1.0',
      type: 'video',
      html: `<iframe data-for="${query.get('url')}" width="${width}" height="${height}" src="https://player.example/1"></iframe>`,
    }),
  );
};

describe('iframe', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/post': html(
        '<title>Post</title><link rel="alternate" type="application/json+oembed" href="/oembed.json?url=post">' +
          '<link rel="alternate" type="text/xml+oembed" href="/oembed.xml?url=post">',
      ),
      '/oembed.json': json({ version: '1.0', type: 'rich', html: TWEET, provider_name: 'Example' }),
      '/xml-only': html('<title>XML</title><link rel="alternate" type="text/xml+oembed" href="/oembed.xml?url=xml">'),
      '/oembed.xml': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
          .end(
            '<?xml version="1.0" encoding="utf-8"?><oembed><version>1.0</version><type>video</type>' +
              '<html>&lt;iframe src="https://player.example/x"&gt;&lt;/iframe&gt;</html></oembed>',
          ),
      '/photo': html('<title>Photo</title><link rel="alternate" type="application/json+oembed" href="/photo.json">'),
      '/photo.json': json({ version: '1.0', type: 'photo', url: 'https://img.example/a.jpg', width: 640, height: 480, title: 'A "cat"' }),
      '/sized': html('<title>Sized</title><link rel="alternate" type="application/json+oembed" href="/echo?url=sized">'),
      '/echo': echo,
      '/plain': html('<title>Plain</title><p>Nothing to embed.</p>'),
      '/link-type': html('<link rel="alternate" type="application/json+oembed" href="/link.json">'),
      '/link.json': json({ version: '1.0', type: 'link', title: 'Only a link' }),
      '/broken': html('<link rel="alternate" type="application/json+oembed" href="/not-json">'),
      '/not-json': html('<title>Soft 404</title>'),
      '/videos/42': html('<title>A video page with no discovery link</title>'),
      '/provider/oembed': echo,
    });
    service = await startService({
      oembedProviders: [
        { provider_name: 'Local', endpoints: [{ schemes: [`http://127.0.0.1:${site.port}/videos/*`], url: `${site.url}/provider/oembed` }] },
      ],
    });
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  const iframeOf = async (path: string, rest = '') => {
    const { status, body } = await service.json(q(`${site.url}${path}`, `iframe${rest}`));
    assert.equal(status, 200, JSON.stringify(body));
    return body.data.iframe;
  };

  test('discovery: the JSON endpoint the page links, markup and scripts apart', async () => {
    assert.deepEqual(await iframeOf('/post'), {
      html: '<blockquote class="post"><p>Hello</p></blockquote>',
      scripts: [{ src: WIDGET, async: true, charset: 'utf-8' }],
    });
    assert.ok(!site.hits.some((hit) => hit.startsWith('/oembed.xml?url=post')), 'JSON is preferred over XML');
  });

  test('discovery: the XML form', async () => {
    assert.deepEqual(await iframeOf('/xml-only'), { html: '<iframe src="https://player.example/x"></iframe>', scripts: [] });
  });

  test('a photo answer becomes an image', async () => {
    assert.deepEqual(await iframeOf('/photo'), {
      html: '<img src="https://img.example/a.jpg" width="640" height="480" alt="A &quot;cat&quot;">',
      scripts: [],
    });
  });

  test('iframe.maxWidth and iframe.maxHeight are forwarded to the provider', async () => {
    const { html: markup } = await iframeOf('/sized', '.maxWidth=350&iframe.maxHeight=200');
    assert.match(markup, /width="350" height="200"/);
    const plain = await iframeOf('/sized');
    assert.match(plain.html, /width="none" height="none"/);
  });

  test('a registered provider answers for its URLs without any discovery link', async () => {
    const { html: markup, scripts } = await iframeOf('/videos/42', '.maxWidth=500');
    assert.deepEqual(scripts, []);
    assert.match(markup, new RegExp(`data-for="${site.url}/videos/42" width="500"`));
    assert.ok(site.hits.some((hit) => hit.startsWith('/provider/oembed?') && hit.includes('format=json')));
  });

  test('no embed is null: a plain page, a link-type answer, an answer that is not oEmbed', async () => {
    assert.equal(await iframeOf('/plain'), null);
    assert.equal(await iframeOf('/link-type'), null);
    assert.equal(await iframeOf('/broken'), null);
  });

  test('with meta=false only the iframe is answered', async () => {
    const { body } = await service.json(q(`${site.url}/post`, 'iframe&meta=false'));
    assert.deepEqual(Object.keys(body.data), ['iframe']);
    assert.equal(body.data.iframe.scripts.length, 1);
  });

  test('without iframe, no endpoint is asked', async () => {
    const hits = site.hits.length;
    const { body } = await service.json(q(`${site.url}/post`, 'force'));
    assert.equal('iframe' in body.data, false);
    assert.deepEqual(site.hits.slice(hits), ['/post']);
  });
});

describe('iframe endpoints obey the address rules', () => {
  let site: TestServer;
  let guarded: Service;
  before(async () => {
    site = await startServer({});
    site.route('/page', html(`<title>Page</title><link rel="alternate" type="application/json+oembed" href="http://127.0.0.1:${site.port}/oembed">`));
    site.route('/oembed', json({ version: '1.0', type: 'rich', html: '<p>private</p>' }));
    site.route('/videos/1', html('<title>Video</title>'));
    // Every name resolves to 127.0.0.1 and only the name public.example is exempt: the page is reachable under
    // it, while an endpoint named by its private address is not.
    const resolver = async () => [{ address: '127.0.0.1', family: 4 as const }];
    guarded = await startService({
      allowHosts: 'public.example',
      resolver,
      oembedProviders: [
        { provider_name: 'Inside', endpoints: [{ schemes: ['http://public.example:*/videos/*'], url: `http://127.0.0.1:${site.port}/oembed` }] },
      ],
    });
  });
  after(async () => {
    await guarded.close();
    await site.close();
  });

  test('a discovered or registered endpoint on a private address is refused, and never reached', async () => {
    for (const path of ['/page', '/videos/1']) {
      const { status, body } = await guarded.json(q(`http://public.example:${site.port}${path}`, 'iframe&meta=false'));
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.data.iframe, null);
    }
    assert.deepEqual(site.hits, ['/page', '/videos/1']);
  });
});
