/**
 * Full-page captures hydrate lazy content (issue 17): `loading=lazy` images and images a script loads when they
 * come into view are in the capture, within the request's budget, even when an image never arrives or the page
 * grows without end as it is scrolled. The stored PNG is decoded with sharp and read at each image's position.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { FULL_PAGE_MAX_PIXELS, type Renderer } from '../../lib/browser/index.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { FULL_PAGE_SCROLL_MS } from '../../lib/time/limits.ts';
import { render, testRenderer } from './helpers.ts';

type Rgb = readonly [number, number, number];

/** Eight solid colours, far enough apart that a mix-up or a missing image cannot pass for another. */
const COLOURS: readonly Rgb[] = [
  [230, 25, 75],
  [60, 180, 75],
  [0, 130, 200],
  [255, 225, 25],
  [145, 30, 180],
  [70, 240, 240],
  [245, 130, 48],
  [128, 128, 0],
];
const FRAME_COLOUR: Rgb = [250, 190, 212];
const IMAGE = { width: 400, height: 300 };
/** CSS px from the top of the document to image k: all below Chromium's lazy-load distance (1 250–2 500 px). */
const imageTop = (k: number): number => 2800 + k * 600;
/** Even images are `loading=lazy`, odd ones get their `src` from an IntersectionObserver once visible. */
const isLazy = (k: number): boolean => k % 2 === 0;

const LAZY_PAGE = `<!doctype html><html><head><title>Lazy</title>
<style>body{margin:0;background:#fff;height:${imageTop(COLOURS.length) + 400}px;position:relative}
img{position:absolute;left:100px;width:${IMAGE.width}px;height:${IMAGE.height}px}
header{position:fixed;top:0;left:0;right:0;height:40px;background:rgb(20,20,20)}</style></head><body><header></header>
${COLOURS.map((_, k) =>
  isLazy(k)
    ? `<img loading="lazy" src="/colour/${k}.png" style="top:${imageTop(k)}px" alt="">`
    : `<img class="later" data-src="/colour/${k}.png" style="top:${imageTop(k)}px" alt="">`,
).join('\n')}
<iframe loading="lazy" src="/frame" style="position:absolute;top:${imageTop(COLOURS.length)}px;left:600px;width:300px;height:300px;border:0"></iframe>
<script>
const seen = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    entry.target.src = entry.target.dataset.src;
    seen.unobserve(entry.target);
  }
});
for (const image of document.querySelectorAll('img.later')) seen.observe(image);
</script></body></html>`;

/** A lazy image and a script-loaded one whose server never answers, far down a page. */
const HANGING_PAGE = `<!doctype html><html><head><title>Hanging</title>
<style>body{margin:0;height:6000px;position:relative;background:rgb(0,0,255)}
img{position:absolute;left:0;width:200px;height:200px}</style></head><body>
<img loading="lazy" src="/never.png" style="top:4000px" alt="">
<img class="later" data-src="/never.png?script" style="top:5000px" alt="">
<script>
const seen = new IntersectionObserver((entries) => {
  for (const entry of entries) if (entry.isIntersecting) entry.target.src = entry.target.dataset.src;
});
for (const image of document.querySelectorAll('img.later')) seen.observe(image);
</script></body></html>`;

/** Infinite scroll: each time the sentinel at the bottom shows, 1 000 px more (in green) go above it. */
const INFINITE_PAGE = `<!doctype html><html><head><title>Endless</title>
<style>body{margin:0} .block{height:1000px;background:rgb(0,160,0)} #first{height:1000px;background:#fff}</style></head>
<body><div id="feed"><div id="first"></div></div><div id="sentinel" style="height:1px"></div>
<script>
const feed = document.getElementById('feed');
new IntersectionObserver((entries) => {
  if (!entries.some((entry) => entry.isIntersecting)) return;
  const block = document.createElement('div');
  block.className = 'block';
  feed.append(block);
}).observe(document.getElementById('sentinel'));
</script></body></html>`;

const decode = async (body: Buffer) => {
  const { data, info } = await sharp(body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x: number, y: number): Rgb => {
      const offset = (info.width * y + x) * info.channels;
      return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
    },
  };
};

const near = (a: Rgb, b: Rgb): boolean => a.every((value, i) => Math.abs(value - b[i]!) <= 3);

describe('full-page captures hydrate lazy content', () => {
  let site: TestServer;
  let renderer: Renderer;
  const pending = new Set<() => void>();
  before(async () => {
    const routes: Record<string, Route> = {
      '/lazy': html(LAZY_PAGE),
      '/frame': html(`<!doctype html><body style="margin:0;background:rgb(${FRAME_COLOUR.join(',')})">`),
      '/hanging': html(HANGING_PAGE),
      '/endless': html(INFINITE_PAGE),
      // Never answered: the request stays open until the server closes.
      '/never.png': (_req, res) => void pending.add(() => res.destroy()),
    };
    for (const [k, [r, g, b]] of COLOURS.entries()) {
      const body = await sharp({ create: { ...IMAGE, channels: 3, background: { r, g, b } } }).png().toBuffer();
      // A little latency, as a network has: an image requested at the last moment is still on its way.
      routes[`/colour/${k}.png`] = (_req, res) =>
        void setTimeout(() => res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(body), 60);
    }
    site = await startServer(routes);
    renderer = await testRenderer();
  });
  after(async () => {
    for (const close of pending) close();
    await renderer.close();
    await site.close();
  });

  /** A full-page capture of `path` at 1× within `timeout`, answered before it. */
  const onTime = async (path: string, timeout: number) => {
    const started = performance.now();
    const { screenshot } = await render(renderer, `${site.url}${path}`, 'screenshot.fullPage&viewport.deviceScaleFactor=1', { timeout });
    const elapsed = performance.now() - started;
    assert.ok(screenshot);
    assert.ok(elapsed < timeout, `${Math.round(elapsed)} ms`);
    return screenshot;
  };

  test('all four loading=lazy and all four script-loaded images, and a loading=lazy iframe, are in the capture', async () => {
    const { screenshot } = await render(renderer, `${site.url}/lazy`, 'screenshot.fullPage');
    assert.ok(screenshot);
    const image = await decode(screenshot.body);
    const scale = screenshot.deviceScaleFactor;
    assert.equal(image.height, (imageTop(COLOURS.length) + 400) * scale);
    const missing = COLOURS.flatMap((colour, k) => {
      const seen = image.at((100 + IMAGE.width / 2) * scale, (imageTop(k) + IMAGE.height / 2) * scale);
      return near(seen, colour) ? [] : [`${isLazy(k) ? 'lazy' : 'script'} image ${k}: ${seen.join(',')} instead of ${colour.join(',')}`];
    });
    assert.deepEqual(missing, []);
    assert.deepEqual(image.at(750 * scale, (imageTop(COLOURS.length) + 150) * scale), FRAME_COLOUR, 'the loading=lazy iframe');
    // Scrolled back before the capture: the fixed header is drawn at the top of the document, and only there.
    const header = Array.from({ length: image.height }, (_, y) => y).filter((y) => near(image.at(5, y), [20, 20, 20]));
    assert.deepEqual([header[0], header.at(-1)], [0, 40 * scale - 1]);
    // Every image was asked for once: forcing eager loads does not fetch one twice.
    for (const k of COLOURS.keys()) assert.equal(site.hits.filter((hit) => hit === `/colour/${k}.png`).length, 1, `image ${k}`);
  });

  test('with javascript=false the loading=lazy images are in the capture too, and nothing waits on frames', async () => {
    const { screenshot, timings } = await render(renderer, `${site.url}/lazy`, 'screenshot.fullPage&javascript=false&viewport.deviceScaleFactor=1');
    assert.ok(screenshot);
    const image = await decode(screenshot.body);
    const lazy = COLOURS.filter((_, k) => isLazy(k));
    assert.deepEqual(lazy.map((_, i) => image.at(100 + IMAGE.width / 2, imageTop(2 * i) + IMAGE.height / 2)), lazy);
    // Without scripts no frame or timer fires in the page: a pass that waited on them would last until its cap
    // (FULL_PAGE_SCROLL_MS + FULL_PAGE_IMAGES_MS); this capture alone takes a few hundred ms.
    assert.ok(timings.capture! < FULL_PAGE_SCROLL_MS, `${timings.capture} ms`);
  });

  test('images that never arrive do not hold the capture past the request’s timeout', async () => {
    const screenshot = await onTime('/hanging', 6_000);
    assert.equal(screenshot.height, 6000);
    assert.ok(site.hits.includes('/never.png') && site.hits.includes('/never.png?script'), 'both images were asked for');
    const image = await decode(screenshot.body);
    assert.deepEqual(image.at(600, 5900), [0, 0, 255]);
  });

  test('an infinite-scroll page ends within the budget, captured to the full-page cap', async () => {
    const screenshot = await onTime('/endless', 10_000);
    assert.equal(screenshot.height, FULL_PAGE_MAX_PIXELS);
    const image = await decode(screenshot.body);
    // The feed grew as the page was scrolled, down to the cap: the last rows are appended blocks.
    assert.deepEqual(image.at(100, 500), [255, 255, 255]);
    assert.deepEqual(image.at(100, FULL_PAGE_MAX_PIXELS - 10), [0, 160, 0]);
  });
});
