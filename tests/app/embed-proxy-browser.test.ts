/**
 * What `embed.proxy` is for, in a real browser: a page on one origin draws a third party's image through Glance
 * with `<img crossorigin="anonymous">` and reads it back from a canvas. The image host sends no CORS header, so
 * the plain 302 form must fail the same check (and does load without `crossorigin`, so the failure is CORS).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import type { Browser } from 'puppeteer-core';
import { launchBareBrowser } from '../helpers/browser.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

/** 3×2, every pixel opaque orange. */
function orange(): Buffer {
  const image = new PNG({ width: 3, height: 2 });
  for (let at = 0; at < image.data.length; at += 4) image.data.set([255, 128, 0, 255], at);
  return PNG.sync.write(image);
}

/** Styled by a `<style>` element, which a CSP applied to the image would block: the rect would be black. */
const STYLED_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="5" height="4"><style>rect{fill:#00ff00}</style><rect width="5" height="4"/><script>document.title="ran"</script></svg>';

/** What a page on another origin gets from `src`: the image's width (0 when it failed) and its first pixel from a canvas. */
const LOAD = `(src, cors) => new Promise((resolve) => {
  const image = new Image();
  if (cors) image.crossOrigin = 'anonymous';
  image.onload = () => {
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    let pixel = null;
    try { pixel = Array.from(context.getImageData(0, 0, 1, 1).data); } catch (error) { pixel = String(error.name); }
    resolve({ width: image.naturalWidth, pixel });
  };
  image.onerror = () => resolve({ width: 0, pixel: null });
  image.src = src;
})`;

describe('embed.proxy in a browser', () => {
  let images: TestServer;
  let consumer: TestServer;
  let service: Service;
  let browser: Browser;
  before(async () => {
    // The third party: a page and its image, no CORS headers at all.
    images = await startServer({
      '/photo.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(orange()),
      '/logo.svg': (_req, res) => void res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(STYLED_SVG),
      '/article': html('<!doctype html><title>a</title><meta property="og:image" content="/photo.png"><link rel="icon" href="/logo.svg" sizes="5x4">'),
    });
    // The page that embeds, on an origin of its own.
    consumer = await startServer({ '/': html('<!doctype html><title>consumer</title>') });
    [service, browser] = await Promise.all([startService(), launchBareBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    await Promise.all([images?.close(), consumer?.close()]);
  });

  type Loaded = { width: number; pixel: number[] | string | null };

  async function loadIn(src: string, cors: boolean): Promise<Loaded> {
    const page = await browser.newPage();
    try {
      await page.goto(`${consumer.url}/`, { waitUntil: 'load' });
      // A string, not a function: tsx would inject helpers into a function that the page does not have.
      return (await page.evaluate(`(${LOAD})(${JSON.stringify(src)}, ${cors})`)) as Loaded;
    } finally {
      await page.close();
    }
  }

  const embedUrl = (rest: string) => `${service.url}/?${q(`${images.url}/article`, rest)}`;

  test('<img crossorigin="anonymous"> of the proxied address loads, and a canvas can read its pixels', async () => {
    assert.notEqual(new URL(consumer.url).origin, new URL(service.url).origin);
    const result = await loadIn(embedUrl('embed=image.url&embed.proxy'), true);
    assert.deepEqual(result, { width: 3, pixel: [255, 128, 0, 255] });
  });

  test('the plain 302 to the third party fails the same check; without crossorigin it loads, so CORS is what fails', async () => {
    assert.deepEqual(await loadIn(embedUrl('embed=image.url'), true), { width: 0, pixel: null });
    const tainted = await loadIn(embedUrl('embed=image.url'), false);
    assert.equal(tainted.width, 3);
    assert.equal(tainted.pixel, 'SecurityError', 'a canvas with a cross-origin image is tainted');
  });

  test('a proxied SVG draws with its own styles (the sandboxing CSP does not reach an image)', async () => {
    const result = await loadIn(embedUrl('embed=logo.url&embed.proxy'), true);
    assert.deepEqual(result, { width: 5, pixel: [0, 255, 0, 255] });
  });

  test("a proxied SVG opened as a document runs none of its script", async () => {
    const page = await browser.newPage();
    try {
      // Unproxied, the third party's SVG runs its script when opened: the check below can fail.
      await page.goto(`${images.url}/logo.svg`, { waitUntil: 'load' });
      assert.equal(await page.evaluate('document.title'), 'ran');
      // An address of its own: the one the test above loaded is in the browser's cache, and its revalidation is a
      // 304 without a content type (the cached answer's stands).
      const response = await page.goto(embedUrl('embed=logo.url&embed.proxy&opened=1'), { waitUntil: 'load' });
      assert.equal(response?.headers()['content-type'], 'image/svg+xml');
      assert.notEqual(await page.evaluate('document.title'), 'ran');
    } finally {
      await page.close();
    }
  });

  test("Glance's own stored screenshot is redirected to, already readable cross-origin", async () => {
    const src = embedUrl('meta=false&screenshot&embed=screenshot.url&embed.proxy&viewport.width=40&viewport.height=30&viewport.deviceScaleFactor=1');
    const redirect = await fetch(src, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.ok(redirect.headers.get('location')?.startsWith(`${service.url}/`));
    const result = await loadIn(src, true);
    assert.equal(result.width, 40);
    assert.ok(Array.isArray(result.pixel), String(result.pixel));
  });
});
