/**
 * Page options with visible effects (docs/CONTRACT.md §2): each test reads the captured pixels or HTML, so an option
 * that silently did nothing fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Renderer } from '../../lib/browser/index.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { codeOf, pixel, png, render, testRenderer } from './helpers.ts';

const WHITE = [255, 255, 255, 255];
const RED = [255, 0, 0, 255];
const BLUE = [0, 0, 255, 255];

const topLeft = (body: Buffer | undefined) => {
  assert.ok(body);
  return pixel(png(body), 20, 20);
};

describe('page options', () => {
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    site = await startServer({
      '/': html('<!doctype html><title>orig</title><style>body{margin:0;background:#fff}</style><p>plain</p>'),
      '/late': html(
        '<!doctype html><body><script>setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<p id=late>arrived</p>"), 900)</script>',
      ),
      '/click': html(
        '<!doctype html><style>body{margin:0;background:#fff}</style><button id=paint style="position:absolute;top:300px" ' +
          'onclick="document.body.style.background=\'rgb(255,0,0)\'">paint</button>',
      ),
      '/scroll': html(
        '<!doctype html><style>body{margin:0}</style><div style="height:3000px;background:#fff"></div>' +
          '<div id=target style="height:2000px;background:rgb(0,0,255)"></div>',
      ),
      '/title-script': html('<!doctype html><title>orig</title><body><script>document.title = "changed"</script>'),
      '/scheme': html(
        '<!doctype html><style>body{margin:0;background:#fff} @media (prefers-color-scheme: dark){body{background:rgb(0,0,255)}}</style>',
      ),
      '/print': html(
        '<!doctype html><style>body{margin:0;background:#fff} @media print{body{background:rgb(255,0,0)}}' +
          '@media print and (prefers-color-scheme: dark){body{background:rgb(0,0,255)}}</style>',
      ),
      '/animated': html(
        '<!doctype html><style>body{margin:0;animation:fade 20s linear forwards}' +
          '@keyframes fade{from{background:rgb(255,0,0)}to{background:rgb(0,0,255)}}</style>',
      ),
      '/style.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('body{background:rgb(255,0,0)!important}'),
      '/script.js': (_req, res) =>
        void res.writeHead(200, { 'content-type': 'text/javascript' }).end('document.body.style.background="rgb(0,0,255)"'),
      '/dialogs': html(
        '<!doctype html><title>before</title><body><script>alert("a"); confirm("b"); prompt("c"); document.title = "after"</script>',
      ),
      '/headers': (req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.headers['x-custom'] ?? 'none'}|${req.headers['user-agent']}</title>`),
    });
    renderer = await testRenderer();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  test('waitForSelector waits for an element added later', async () => {
    const waited = await render(renderer, `${site.url}/late`, 'waitForSelector=%23late', { capture: { html: true } });
    assert.match(waited.html ?? '', /id="late"/);
  });

  test('waitForSelector that never matches ends in EBRWSRTIMEOUT within the budget', async () => {
    const started = performance.now();
    assert.equal(await codeOf(render(renderer, `${site.url}/`, 'waitForSelector=%23never', { timeout: 2500 })), 'EBRWSRTIMEOUT');
    assert.ok(performance.now() - started < 3000);
  });

  test('click runs the page’s handler before the capture', async () => {
    const plain = await render(renderer, `${site.url}/click`, 'screenshot');
    assert.deepEqual(topLeft(plain.screenshot?.body), WHITE);
    const clicked = await render(renderer, `${site.url}/click`, 'screenshot&click=%23paint');
    assert.deepEqual(topLeft(clicked.screenshot?.body), RED);
  });

  test('scroll brings the element to the top of the viewport', async () => {
    const { screenshot } = await render(renderer, `${site.url}/scroll`, 'screenshot&scroll=%23target');
    assert.deepEqual(topLeft(screenshot?.body), BLUE);
  });

  test('styles and scripts apply, as code and as URLs', async () => {
    const styled = await render(renderer, `${site.url}/`, `screenshot&styles=${encodeURIComponent('body{background:rgb(255,0,0)}')}`);
    assert.deepEqual(topLeft(styled.screenshot?.body), RED);
    const linked = await render(renderer, `${site.url}/`, `screenshot&styles=${encodeURIComponent(`${site.url}/style.css`)}`);
    assert.deepEqual(topLeft(linked.screenshot?.body), RED);
    const scripted = await render(
      renderer,
      `${site.url}/`,
      `screenshot&scripts=${encodeURIComponent('document.body.style.background="rgb(0,0,255)"')}`,
    );
    assert.deepEqual(topLeft(scripted.screenshot?.body), BLUE);
    const loaded = await render(renderer, `${site.url}/`, `screenshot&scripts=${encodeURIComponent(`${site.url}/script.js`)}`);
    assert.deepEqual(topLeft(loaded.screenshot?.body), BLUE);
  });

  test('javascript=false stops page scripts', async () => {
    const on = await render(renderer, `${site.url}/title-script`, '', { capture: { html: true } });
    assert.match(on.html ?? '', /<title>changed<\/title>/);
    const off = await render(renderer, `${site.url}/title-script`, 'javascript=false', { capture: { html: true } });
    assert.match(off.html ?? '', /<title>orig<\/title>/);
  });

  test('colorScheme=dark applies prefers-color-scheme; mediaType=print applies print CSS', async () => {
    assert.deepEqual(topLeft((await render(renderer, `${site.url}/scheme`, 'screenshot')).screenshot?.body), WHITE);
    assert.deepEqual(topLeft((await render(renderer, `${site.url}/scheme`, 'screenshot&colorScheme=dark')).screenshot?.body), BLUE);
    assert.deepEqual(topLeft((await render(renderer, `${site.url}/print`, 'screenshot&mediaType=print')).screenshot?.body), RED);
    const both = await render(renderer, `${site.url}/print`, 'screenshot&mediaType=print&colorScheme=dark');
    assert.deepEqual(topLeft(both.screenshot?.body), BLUE);
  });

  test('animations are stopped by default (the end state is captured) and run with animations=true', async () => {
    assert.deepEqual(topLeft((await render(renderer, `${site.url}/animated`, 'screenshot')).screenshot?.body), BLUE);
    const [red, , blue] = topLeft((await render(renderer, `${site.url}/animated`, 'screenshot&animations=true')).screenshot?.body);
    assert.ok(red > 200 && blue < 55, `early in the animation, still red: ${red}, ${blue}`);
  });

  test('alert, confirm and prompt are dismissed and the page goes on', async () => {
    const { html: content, screenshot } = await render(renderer, `${site.url}/dialogs`, 'screenshot', { capture: { html: true } });
    assert.match(content ?? '', /<title>after<\/title>/);
    assert.ok(screenshot);
  });

  test('headers reach the target; the user agent is the configured desktop Chrome, or the device’s', async () => {
    const desktop = await render(renderer, `${site.url}/headers`, 'headers.x-custom=hello', { capture: { html: true } });
    assert.match(desktop.html ?? '', /<title>hello\|Mozilla\/5\.0 \(Macintosh[^<]*Chrome\/[^<]*<\/title>/);
    const phone = await render(renderer, `${site.url}/headers`, 'device=iPhone%2015', { capture: { html: true } });
    assert.match(phone.html ?? '', /<title>none\|[^<]*iPhone OS[^<]*<\/title>/);
  });

  test('screenshot.element that matches nothing is ENOTFOUNDELEMENT, within the budget', async () => {
    const started = performance.now();
    assert.equal(await codeOf(render(renderer, `${site.url}/`, 'screenshot.element=%23missing', { timeout: 3000 })), 'ENOTFOUNDELEMENT');
    assert.ok(performance.now() - started < 3000);
  });

  test('a malformed selector is EINVALQUERY naming its parameter, and the target is never loaded', async () => {
    const hits = site.hits.length;
    for (const [query, param] of [
      ['screenshot.element=div%5B', 'screenshot.element'],
      ['click=%5B%5B', 'click'],
      ['waitForSelector=a%3A%3Ab', 'waitForSelector'],
    ] as const) {
      await assert.rejects(render(renderer, `${site.url}/`, query), (error: any) => {
        assert.equal(error.code, 'EINVALQUERY');
        assert.ok(param in error.data, JSON.stringify(error.data));
        return true;
      });
    }
    assert.equal(site.hits.length, hits);
  });
});
