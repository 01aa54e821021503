/**
 * `iframe` end to end through the local service: oEmbed discovery (JSON and XML endpoints served here), whose
 * page-controlled markup keeps its https player `<iframe>` alone, a registered provider (a registry passed to the
 * service, its endpoint served here) whose markup is kept whole, sizes forwarded, `embed=iframe.html` as a framable
 * sandboxed player, and endpoints on refused addresses never asked.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const WIDGET = 'https://platform.example/widgets.js';
const TWEET = `<blockquote class="post"><p>Hello</p></blockquote>\n<script async src="${WIDGET}" charset="utf-8"></script>`;
/** A page's own oEmbed answer carrying more than a player: script, handlers, styles, other elements, an http frame. */
const HOSTILE =
  '<script>alert(document.domain)</script><div onclick="steal()"><img src=x onerror="steal()"></div>' +
  '<iframe src="http://player.example/plain"></iframe>' +
  '<iframe src="https://player.example/v/1?a=1&amp;b=2" width="560" height="315" title="A &quot;film&quot;" onload="steal()" ' +
  'style="position:fixed;inset:0" allow="autoplay; camera; encrypted-media \'src\' https://evil.example" allowfullscreen ' +
  'frameborder="0" loading="lazy" srcdoc="<script>steal()</script>" sandbox="allow-same-origin"></iframe>' +
  '<iframe src="https://second.example/"></iframe>';

const json = (body: unknown) => (_req: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Echoes the consumer parameters it was sent in the markup, so a test can see what was forwarded. */
const echo = (req: IncomingMessage, res: ServerResponse) => {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const width = query.get('maxwidth') ?? '640';
  const height = query.get('maxheight') ?? '360';
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
      '/oembed.json': json({ version: '1.0', type: 'rich', html: HOSTILE, provider_name: 'Example' }),
      '/tweets/7': html('<title>A post of a known provider</title>'),
      '/tweet-oembed': json({ version: '1.0', type: 'rich', html: TWEET, provider_name: 'Known' }),
      '/http-only': html('<link rel="alternate" type="application/json+oembed" href="/http-only.json">'),
      '/http-only.json': json({ version: '1.0', type: 'video', html: '<iframe src="http://player.example/1"></iframe>' }),
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
        { provider_name: 'Known', endpoints: [{ schemes: [`http://127.0.0.1:${site.port}/tweets/*`], url: `${site.url}/tweet-oembed` }] },
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

  test('discovery: the JSON endpoint the page links, kept to its first https player iframe and that frame’s safe attributes', async () => {
    assert.deepEqual(await iframeOf('/post'), {
      html:
        '<iframe src="https://player.example/v/1?a=1&amp;b=2" width="560" height="315" title="A &quot;film&quot;" ' +
        'allow="autoplay; encrypted-media" allowfullscreen frameborder="0" loading="lazy"></iframe>',
      scripts: [],
    });
    assert.ok(!site.hits.some((hit) => hit.startsWith('/oembed.xml?url=post')), 'JSON is preferred over XML');
  });

  test('discovery: an answer with no https player iframe is no embed', async () => {
    assert.equal(await iframeOf('/http-only'), null);
  });

  test('a registered provider’s markup is kept whole, its scripts apart', async () => {
    assert.deepEqual(await iframeOf('/tweets/7'), {
      html: '<blockquote class="post"><p>Hello</p></blockquote>',
      scripts: [{ src: WIDGET, async: true, charset: 'utf-8' }],
    });
  });

  test('embed=iframe.html is a player: HTML other sites may frame, sandboxed in an opaque origin', async () => {
    const response = await service.request(q(`${site.url}/tweets/7`, 'iframe&embed=iframe.html'));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('x-frame-options'), null);
    const policy = response.headers.get('content-security-policy') ?? '';
    const sandbox = policy.split(';').map((directive) => directive.trim().split(/\s+/)).find(([name]) => name === 'sandbox');
    assert.ok(sandbox, policy);
    assert.ok(sandbox.includes('allow-scripts'), 'a provider’s widget runs');
    assert.ok(!sandbox.includes('allow-same-origin'), 'but never as the API’s origin');
    assert.ok(!sandbox.includes('allow-top-navigation'), 'nor navigates the page that frames it');
    assert.doesNotMatch(policy, /frame-ancestors/);
    const body = await response.text();
    assert.match(body, /^<!doctype html>/);
    assert.ok(body.includes('<blockquote class="post"><p>Hello</p></blockquote>'));
    assert.ok(body.includes(`<script src="${WIDGET}" async charset="utf-8"></script>`), 'the widget script is put back');

    const discovered = await (await service.request(q(`${site.url}/post`, 'iframe&embed=iframe.html'))).text();
    assert.ok(discovered.includes('<iframe src="https://player.example/v/1?a=1&amp;b=2"'));
    assert.doesNotMatch(discovered, /steal|alert|second\.example|http:\/\//);

    const other = await service.request(q(`${site.url}/tweets/7`, 'iframe&embed=iframe.scripts'));
    assert.equal(other.headers.get('x-frame-options'), 'DENY', 'every other answer still forbids framing');
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
    assert.match(plain.html, /width="640" height="360"/);
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
    const { body } = await service.json(q(`${site.url}/tweets/7`, 'iframe&meta=false'));
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
