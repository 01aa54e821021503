/** Custom `data` rules through the service, on pages served on 127.0.0.1 (docs/parameters.md "Custom data"). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import mql from '@microlink/mql';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';
import { mp3, mp4, png } from '../ping/fixtures.ts';

const asset =
  (type: string, body: Buffer): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) }).end(body);

const ARTICLE = `<!doctype html><html lang="en"><head><title>Site title</title>
<meta property="og:title" content="OG title"><meta property="og:image" content="/live.png"></head><body>
<header><a href="/">Brand</a><nav><a href="/news">News</a><a href="/sport">Sport</a></nav></header>
<main><article><header><h1>The story</h1></header>
<p>The main text of the story, with <a href="/more">more</a>.</p><img src="/dead.png" alt="dead"><img src="/live.png" alt="live">
<a href="mailto:desk@news.test">Write to us</a><video src="/clip.mp4"></video><audio src="/talk.mp3"></audio></article></main>
<aside>Most read</aside><footer>Copyright footer</footer></body></html>`;

const CHARACTERS = `<!doctype html><html><body><div id="u">café &amp; &lt;b&gt;&nbsp;“q” <a title="a&quot;b &lt; é>">x</a>
<input disabled><br><svg viewBox="0 0 2 2"><rect width="1"/><foreignObject><p>in</p></foreignObject></svg>
<script>var sum = 1 < 2 && "</p>";</script><!-- note --></div></body></html>`;

const SCRIPTED = `<html><body><div id="app"></div>
<script>document.getElementById('app').innerHTML = '<h2 class="late">Made by script</h2>'; window.answer = { n: 42 };</script></body></html>`;

describe('custom data rules through the service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/article': html(ARTICLE),
      '/scripted': html(SCRIPTED),
      '/characters': html(CHARACTERS),
      '/live.png': asset('image/png', png(640, 320)),
      '/clip.mp4': asset('video/mp4', mp4(3, { width: 320, height: 180 })),
      '/talk.mp3': asset('audio/mpeg', mp3(100)),
      '/api': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[1,2,3]}'),
    });
    service = await startService();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('meta=false runs only the rules (the issue: it used to answer an empty data)', async () => {
    const { status, body } = await service.json(q(`${site.url}/article`, 'meta=false&data.heading.selector=h1'));
    assert.equal(status, 200);
    assert.deepEqual(body.data, { heading: 'The story' });
  });

  test('a rule named like a default field overrides it; the other fields stay', async () => {
    const { body } = await service.json(q(`${site.url}/article`, 'data.title.selector=h1&data.title.attr=text&ping=false'));
    assert.equal(body.data.title, 'The story');
    assert.equal(body.data.lang, 'en');
  });

  test('whole-page Markdown is the whole page without its chrome, as whole-page text is', async () => {
    const { body } = await service.json(q(`${site.url}/article`, 'meta=false&data.content.attr=markdown&data.text.attr=text'));
    const { content: markdown, text }: { content: string; text: string } = body.data;
    assert.match(markdown, /^# The story/);
    assert.match(markdown, new RegExp(`\\[more\\]\\(${site.url}/more\\)`));
    for (const kept of ['The main text of the story', 'Write to us', 'Most read']) assert.ok(markdown.includes(kept) && text.includes(kept), kept);
    for (const chrome of ['News', 'Sport', 'Copyright footer', 'Brand', 'Site title']) assert.ok(!markdown.includes(chrome) && !text.includes(chrome), chrome);
  });

  test('media-typed rules are pinged and enriched; a dead image falls through to the next fallback', async () => {
    const { body } = await service.json(q(`${site.url}/article`,
      'meta=false&data.pic.0.selector=img[alt=dead]&data.pic.0.attr=src&data.pic.0.type=image'
      + '&data.pic.1.selector=img[alt=live]&data.pic.1.attr=src&data.pic.1.type=image'));
    assert.equal(body.data.pic.url, `${site.url}/live.png`);
    assert.deepEqual([body.data.pic.width, body.data.pic.height, body.data.pic.type], [640, 320, 'png']);
  });

  test('ping.image=false leaves a media rule raw (a dead URL kept)', async () => {
    const { body } = await service.json(q(`${site.url}/article`,
      'meta=false&ping.image=false&data.pic.selector=img[alt=dead]&data.pic.attr=src&data.pic.type=image'));
    assert.deepEqual(body.data.pic, { url: `${site.url}/dead.png`, type: 'png' });
  });

  test('attr=json reads a JSON target', async () => {
    const { body } = await service.json(q(`${site.url}/api`, 'meta=false&data.api.attr=json'));
    assert.deepEqual(body.data.api, { items: [1, 2, 3] });
  });

  test('evaluate runs in the rendered page; selectors then see the rendered DOM', async () => {
    const { status, headers, body } = await service.json(q(`${site.url}/scripted`,
      'meta=false&data.n.evaluate=window.answer.n&data.n.type=number&data.fn.evaluate=()%20%3D%3E%20document.querySelectorAll(%27h2%27).length'
      + '&data.late.selector=.late&data.late.attr=text'));
    assert.equal(status, 200);
    assert.equal(headers.get('x-fetch-mode'), 'prerender');
    assert.deepEqual(body.data, { n: 42, fn: 1, late: 'Made by script' });
  });

  test('attr=html is the browser\'s own innerHTML, on the rendered DOM and on the fetched HTML alike', async () => {
    const rendered = await service.json(q(`${site.url}/characters`,
      'meta=false&data.ours.selector=%23u&data.browser.evaluate=document.getElementById(%27u%27).innerHTML'));
    assert.equal(rendered.headers.get('x-fetch-mode'), 'prerender');
    assert.equal(rendered.body.data.ours, rendered.body.data.browser);
    const fetched = await service.json(q(`${site.url}/characters`, 'meta=false&prerender=false&data.ours.selector=%23u'));
    assert.equal(fetched.body.data.ours, rendered.body.data.browser);
  });

  test('without a browser, the fetched HTML has no script-made content: the field is null', async () => {
    const { body } = await service.json(q(`${site.url}/scripted`, 'meta=false&data.late.selector=.late&prerender=false'));
    assert.deepEqual(body.data, { late: null });
  });

  test('embed=<markdown field> answers text/markdown; an html field is sandboxed text/html', async () => {
    const markdown = await service.request(q(`${site.url}/article`, 'meta=false&data.content.attr=markdown&embed=content'));
    assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(await markdown.text(), /^# The story/);
    const page = await service.request(q(`${site.url}/article`, 'meta=false&data.story.selector=article&embed=story'));
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(page.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const list = await service.json(q(`${site.url}/article`, 'meta=false&data.links.selectorAll=a&data.links.attr=href&data.links.type=url&embed=links'));
    assert.ok(Array.isArray(list.body) && list.body.includes(`${site.url}/more`));
  });

  test('filter keeps rule fields, and only the shown rules run', async () => {
    const { body } = await service.json(q(`${site.url}/article`, 'meta=false&data.a.selector=h1&data.b.selector=p&filter=a'));
    assert.deepEqual(body.data, { a: 'The story' });
  });

  test('invalid rules answer EINVALDATA naming the rule', async () => {
    const { status, body } = await service.json(q(`${site.url}/article`, 'data.x.selector=a[href'));
    assert.equal(status, 400);
    assert.equal(body.code, 'EINVALDATA');
    assert.ok('data.x.selector' in body.data);
  });

  test('results are cached keyed by the rules', async () => {
    const first = await service.json(q(`${site.url}/article`, 'meta=false&data.k.selector=h1'));
    const other = await service.json(q(`${site.url}/article`, 'meta=false&data.k.selector=p&data.k.attr=text'));
    const again = await service.json(q(`${site.url}/article`, 'meta=false&data.k.selector=h1'));
    assert.equal(again.headers.get('x-cache-status'), 'HIT');
    assert.deepEqual(again.body.data, first.body.data);
    assert.notDeepEqual(other.body.data, first.body.data);
  });

  /** Rules from Microlink's documentation (mql/data/*, sdk/methods/extract/*), sent by the published client. */
  const DOCUMENTED: Array<[string, Record<string, unknown>]> = [
    ['links', { links: { selectorAll: 'a', attr: 'href', type: 'url' } }],
    ['images', { images: { selectorAll: 'img', attr: 'src', type: 'image' } }],
    ['videos', { videos: { selectorAll: 'video', attr: 'src', type: 'video' } }],
    ['audios', { audios: { selectorAll: 'audio', attr: 'src', type: 'audio' } }],
    ['emails', { emails: { selectorAll: 'a[href^="mailto:"]', attr: 'href', type: 'email' } }],
    ['whole-page markdown', { content: { attr: 'markdown' } }],
    ['avatar', { avatar: { selector: 'meta[property="og:image"]:not([content=""])', attr: 'content', type: 'image' } }],
    ['fallback selectors', { heading: { selector: ['h3', 'h1'], attr: 'text' } }],
    ['nested', { stats: { selector: 'main', attr: { title: { selector: 'h1', attr: 'text' }, link: { selector: 'p a', attr: 'href', type: 'url' } } } }],
    ['posts', { posts: { selectorAll: 'article', attr: { title: { type: 'title', selector: 'h1', attr: 'text' }, url: { type: 'url', selector: 'a', attr: 'href' } } } }],
  ];
  for (const [name, data] of DOCUMENTED) {
    test(`@microlink/mql gets the same data as a direct request: ${name}`, async () => {
      const response = await mql(`${site.url}/article`, { endpoint: `${service.url}/`, meta: false, data } as Parameters<typeof mql>[1]);
      const flat = Object.entries(flatten({ data })).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
      const direct = await service.json(q(`${site.url}/article`, `meta=false&${flat}`));
      assert.equal(direct.status, 200);
      assert.deepEqual(response.data, direct.body.data);
      assert.ok(Object.values(direct.body.data).every((value) => value !== null), JSON.stringify(direct.body.data));
    });
  }
});

function flatten(value: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (item !== null && typeof item === 'object') Object.assign(out, flatten(item as Record<string, unknown>, name));
    else out[name] = item;
  }
  return out;
}
