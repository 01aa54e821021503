/**
 * A full-page capture scrolls through the page only when something on it can react (issue 16,
 * lib/browser/scrolling.ts): a page with no `loading=lazy` element, no IntersectionObserver, no scroll listener and
 * no frame is captured without the pass, and each of those brings the pass back. Every page here watches its own
 * scroll position without telling Glance (a requestAnimationFrame loop reading `scrollY`, which no check looks
 * for) and paints a red band at the top once it has been scrolled: the band in the capture says whether the pass
 * ran. The stored PNG is decoded with sharp and read at the band and at the page's images.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Renderer } from '../../lib/browser/index.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { render, testRenderer } from './helpers.ts';

type Rgb = readonly [number, number, number];

const HEIGHT = 4000;
const IMAGE_TOP = 3000;
const GREEN: Rgb = [40, 170, 60];
const RED: Rgb = [255, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/** A page `HEIGHT` px tall whose band turns red once the page has been scrolled, with `body` in it. */
const page = (body: string): string => `<!doctype html><html><head><title>Scrolling</title>
<style>body{margin:0;background:#fff;height:${HEIGHT}px;position:relative}
#band{position:absolute;top:0;left:0;width:100%;height:50px;background:#fff}
img{position:absolute;top:${IMAGE_TOP}px;left:100px;width:200px;height:200px}</style></head><body>
<div id="band"></div>
${body}
<script>
(function watch() {
  if (scrollY > 0) document.getElementById('band').style.background = 'rgb(255,0,0)';
  else requestAnimationFrame(watch);
})();
</script></body></html>`;

/** An image that gets its `src` from an IntersectionObserver, an instance of `type`, once it is in view. */
const observed = (type: string, definition = '') => `<img id="later" data-src="/green.png" alt="">
<script>
${definition}
const seen = new ${type}((entries) => {
  for (const entry of entries) if (entry.isIntersecting) entry.target.src = entry.target.dataset.src;
});
seen.observe(document.getElementById('later'));
</script>`;

const PAGES: Record<string, string> = {
  '/plain': page('<div>Nothing here reacts to scrolling.</div>'),
  '/observer': page(observed('IntersectionObserver')),
  '/subclass': page(observed('Watcher', 'class Watcher extends IntersectionObserver {}')),
  '/listener': page(`<img id="later" data-src="/green.png" alt="">
<script>
addEventListener('scroll', () => {
  const image = document.getElementById('later');
  if (image.getBoundingClientRect().top < innerHeight) image.src = image.dataset.src;
}, { passive: true });
</script>`),
  '/lazy': page('<img loading="lazy" src="/green.png" alt="">'),
  '/frame': page('<iframe src="/inner" style="position:absolute;top:100px;width:100px;height:100px;border:0"></iframe>'),
  // A page that took IntersectionObserver away: the check cannot look, so the pass runs as it always did.
  '/hostile': page('<script>IntersectionObserver = undefined; document.querySelector = () => { throw new Error("no"); };</script>'),
};

const decode = async (body: Buffer) => {
  const { data, info } = await sharp(body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    height: info.height,
    at: (x: number, y: number): Rgb => {
      const offset = (info.width * y + x) * info.channels;
      return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
    },
  };
};

describe('full-page captures scroll only pages that react to scrolling', () => {
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    const green = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: GREEN[0], g: GREEN[1], b: GREEN[2] } } })
      .png()
      .toBuffer();
    const routes: Record<string, Route> = {
      '/green.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(green),
      '/inner': html('<!doctype html><body style="margin:0;background:#fff">'),
    };
    for (const [path, body] of Object.entries(PAGES)) routes[path] = html(body);
    site = await startServer(routes);
    renderer = await testRenderer();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  /**
   * The full-page capture of `path` at 1×: the band's colour and the colour where the image goes. Without consent
   * banners' autoconsent (adblock=false): while it runs in the page the check is not made (below).
   */
  const capture = async (path: string, query = 'adblock=false') => {
    const { screenshot } = await render(renderer, `${site.url}${path}`, `screenshot.fullPage&viewport.deviceScaleFactor=1&${query}`);
    assert.ok(screenshot);
    const image = await decode(screenshot.body);
    assert.equal(image.height, HEIGHT);
    return { band: image.at(10, 10), image: image.at(200, IMAGE_TOP + 100) };
  };

  test('a page where nothing reacts to scrolling is captured whole without being scrolled', async () => {
    assert.deepEqual(await capture('/plain'), { band: WHITE, image: WHITE });
  });

  test('with autoconsent in the page (adblock, the default), the check is not made and the page is scrolled', async () => {
    assert.deepEqual(await capture('/plain', 'adblock=true'), { band: RED, image: WHITE });
    assert.deepEqual(await capture('/observer', 'adblock=true'), { band: RED, image: GREEN });
  });

  test('an image an IntersectionObserver loads is in the capture', async () => {
    assert.deepEqual(await capture('/observer'), { band: RED, image: GREEN });
  });

  test('an observer of a subclass of IntersectionObserver counts as one', async () => {
    assert.deepEqual(await capture('/subclass'), { band: RED, image: GREEN });
  });

  test('an image a scroll listener loads is in the capture', async () => {
    assert.deepEqual(await capture('/listener'), { band: RED, image: GREEN });
  });

  test('a loading=lazy image brings the pass back', async () => {
    assert.deepEqual(await capture('/lazy'), { band: RED, image: GREEN });
  });

  test('a page with a frame is scrolled (its own document is not looked at)', async () => {
    assert.equal((await capture('/frame')).band.join(), RED.join());
  });

  test('a page that hides what the check reads is scrolled, as before', async () => {
    assert.equal((await capture('/hostile')).band.join(), RED.join());
  });
});
