/**
 * `waitUntil=auto`'s network quiet (lib/browser/quiet.ts, issue 16): counted from the network's own last event,
 * so a page quiet since before `load` waits only the short minimum; yet what the page starts after `load` is still
 * waited for and in the capture (an image a load handler adds, an image the page adds once a fetch has answered),
 * and a request that never ends holds the capture only until the cap. The stored PNG is read where each image is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Renderer } from '../../lib/browser/index.ts';
import { watchNetwork } from '../../lib/browser/quiet.ts';
import { AUTO_IDLE_CAP_MS, AUTO_IDLE_MS, AUTO_QUIET_MIN_MS } from '../../lib/time/limits.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { launchBareBrowser } from '../helpers/browser.ts';
import { pixel, png, render, testRenderer } from './helpers.ts';

const RED = [255, 0, 0, 255];
const WHITE = [255, 255, 255, 255];
/** How long the late images take to arrive: well past every quiet window, so only waiting for them shows them. */
const IMAGE_DELAY_MS = 400;

const BASE = '<!doctype html><style>body{margin:0;background:#fff}img{position:absolute;left:0;top:0;width:200px;height:100px}</style>';
const addImage = (src: string) => `const image = new Image(); image.src = ${JSON.stringify(src)}; document.body.append(image);`;

const PAGES: Record<string, string> = {
  // A zero-delay timer in a load handler: the request starts just after `load`, within the minimum.
  '/after-load': `${BASE}<body><script>addEventListener('load', () => setTimeout(() => { ${addImage('/red.png?after-load')} }, 0))</script>`,
  // Data asked for after `load`, acted on 100 ms after it arrives (a framework rendering it): the image starts
  // after the short minimum but within the quiet that a fetch answer gets.
  '/after-fetch': `${BASE}<body><script>addEventListener('load', () => {
    fetch('/data.json').then((response) => response.json()).then(({ src }) => setTimeout(() => { ${addImage('/red.png?after-fetch').replace('"/red.png?after-fetch"', 'src')} }, 100));
  })</script>`,
  // A long poll that is never answered, started by a load handler.
  '/long-poll': `${BASE}<body><script>addEventListener('load', () => setTimeout(() => fetch('/poll').catch(() => undefined), 0))</script>`,
  '/quiet': `${BASE}<body><p>Nothing after load.</p>`,
};

describe('waitUntil=auto waits for network quiet counted from the network', () => {
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    const red = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer();
    const routes: Record<string, Route> = {
      '/red.png': (_req, res) =>
        void setTimeout(() => res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(red), IMAGE_DELAY_MS),
      '/data.json': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ src: '/red.png?after-fetch' })),
      // Never answered: the request stays open until the server closes (and destroys its sockets).
      '/poll': () => undefined,
    };
    for (const [path, page] of Object.entries(PAGES)) routes[path] = html(page);
    site = await startServer(routes);
    renderer = await testRenderer();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  const shot = async (path: string) => {
    const result = await render(renderer, `${site.url}${path}`, 'screenshot&viewport.width=400&viewport.height=300&viewport.deviceScaleFactor=1', { timeout: 10_000 });
    return { image: png(result.screenshot!.body), timings: result.timings };
  };

  test('an image a load handler adds with a zero-delay timer is waited for and in the capture', async () => {
    const { image } = await shot('/after-load');
    assert.ok(site.hits.includes('/red.png?after-load'));
    assert.deepEqual(pixel(image, 100, 50), RED);
    assert.deepEqual(pixel(image, 300, 200), WHITE);
  });

  test('an image the page adds 100 ms after a fetch answered is waited for and in the capture', async () => {
    const { image } = await shot('/after-fetch');
    assert.ok(site.hits.includes('/data.json') && site.hits.includes('/red.png?after-fetch'));
    assert.deepEqual(pixel(image, 100, 50), RED);
  });

  test('a long poll that is never answered holds the capture until the cap, and no longer', async () => {
    const started = performance.now();
    const { image, timings } = await shot('/long-poll');
    assert.ok(site.hits.includes('/poll'));
    assert.deepEqual(pixel(image, 100, 50), WHITE);
    // Loading and the quiet wait: at least the cap after `load`, since the poll stayed in flight.
    assert.ok(timings.navigate! >= AUTO_IDLE_CAP_MS, `navigate ${timings.navigate} ms`);
    assert.ok(performance.now() - started < 10_000);
  });
});

describe('watchNetwork', () => {
  let site: TestServer;
  before(async () => {
    site = await startServer({ '/quiet': html(PAGES['/quiet']!), '/data.json': (_req, res) => void res.writeHead(200).end('{}') });
  });
  after(() => site.close());

  test('a page quiet since before `load` is settled at once, not after a quiet time counted from now', async () => {
    const browser = await launchBareBrowser();
    try {
      const page = await browser.newPage();
      const network = watchNetwork(page);
      await page.goto(`${site.url}/quiet`, { waitUntil: 'load' });
      await new Promise((resolve) => setTimeout(resolve, AUTO_QUIET_MIN_MS * 2));
      // `load` was AUTO_QUIET_MIN_MS × 2 ago and nothing has happened since.
      const started = performance.now();
      await network.settled(started - AUTO_QUIET_MIN_MS * 2, 5000);
      assert.ok(performance.now() - started < AUTO_IDLE_MS, `${Math.round(performance.now() - started)} ms`);

      // A fetch answer restarts the quiet: AUTO_IDLE_MS from the answer, which came after this clock started.
      const asked = performance.now();
      await page.evaluate(`fetch('/data.json').then((response) => response.text())`);
      await network.settled(performance.now() - AUTO_QUIET_MIN_MS * 2, 5000);
      assert.ok(performance.now() - asked >= AUTO_IDLE_MS, `${Math.round(performance.now() - asked)} ms`);
      network.stop();
    } finally {
      await browser.close();
    }
  });
});
