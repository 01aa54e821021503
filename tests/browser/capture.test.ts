/**
 * Screenshots and PDFs with the real Chromium: the stored bytes themselves are decoded and checked against what
 * the renderer reports and against what the page draws.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FULL_PAGE_MAX_PIXELS, type Renderer } from '../../lib/browser/index.ts';
import { MAX_DEVICE_AREA } from '../../lib/browser/devices.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { codeOf, jpegDimensions, mediaBoxes, pixel, png, pngDimensions, render, testRenderer } from './helpers.ts';

const BOX_PAGE = `<!doctype html><style>body{margin:0;background:#fff}
#box{position:absolute;left:100px;top:50px;width:400px;height:300px;background:rgb(0,128,255)}</style>
<div id="box"></div>`;

const TALL_PAGE = `<!doctype html><style>body{margin:0}</style><div style="height:3000px;background:rgb(0,200,0)"></div>`;

describe('screenshot', () => {
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    site = await startServer({
      '/': html(BOX_PAGE),
      '/tall': html(TALL_PAGE),
      '/huge': html('<!doctype html><body style="margin:0"><div style="height:100000px;background:linear-gradient(red,blue)"></div>'),
      '/lying': html(`${BOX_PAGE}<script>Object.defineProperty(window, 'scrollX', { get: () => 7e4 }); Object.defineProperty(window, 'scrollY', { get: () => 'far' })</script>`),
      '/thin': html('<!doctype html><div id="thin" style="position:absolute;left:10px;top:10px;width:0.3px;height:0.3px;background:red"></div>'),
      '/maxless': html('<!doctype html><h1>mm</h1><script>Math.max = () => -5</script>'),
      '/left': html('<!doctype html><body style="margin:0"><div id="box" style="position:absolute;left:-300px;top:0;width:400px;height:50px;background:rgb(0,128,255)"></div>'),
      '/wide': html('<!doctype html><body style="margin:0"><div id="wide" style="width:1000000px;height:4000px;background:linear-gradient(90deg,red,blue)"></div>'),
      '/width': html('<!doctype html><title>w</title><script>document.title = innerWidth + "x" + devicePixelRatio</script>'),
    });
    renderer = await testRenderer();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  test('the default device gives a 2560×1600 PNG whose decoded size is the reported one', async () => {
    const { screenshot, statusCode } = await render(renderer, `${site.url}/`, 'screenshot');
    assert.equal(statusCode, 200);
    assert.ok(screenshot);
    assert.equal(screenshot.type, 'png');
    assert.deepEqual(screenshot.body.subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const image = png(screenshot.body);
    assert.deepEqual([image.width, image.height], [2560, 1600]);
    assert.deepEqual([screenshot.width, screenshot.height, screenshot.deviceScaleFactor], [2560, 1600, 2]);
    // The box at CSS (100, 50) is drawn at device pixels (200, 100) onwards.
    assert.deepEqual(pixel(image, 210, 110), [0, 128, 255, 255]);
    assert.deepEqual(pixel(image, 190, 90), [255, 255, 255, 255]);
  });

  test('screenshot.element clips to a 400×300 box: 800×600 pixels, all of the box colour', async () => {
    const { screenshot } = await render(renderer, `${site.url}/`, 'screenshot.element=%23box');
    assert.ok(screenshot);
    const image = png(screenshot.body);
    assert.deepEqual([image.width, image.height], [800, 600]);
    assert.deepEqual([screenshot.width, screenshot.height], [800, 600]);
    for (const [x, y] of [[0, 0], [799, 599], [400, 300]] as const) assert.deepEqual(pixel(image, x, y), [0, 128, 255, 255]);
  });

  test('fullPage captures the document height × 2', async () => {
    const { screenshot } = await render(renderer, `${site.url}/tall`, 'screenshot.fullPage');
    assert.ok(screenshot);
    const image = png(screenshot.body);
    assert.deepEqual([image.width, image.height], [2560, 6000]);
    assert.equal(screenshot.height, 6000);
    assert.deepEqual(pixel(image, 100, 5990), [0, 200, 0, 255]);
  });

  test('a 100 000 px page is a bounded, successful full-page capture', async () => {
    // The bound is in pixels. In time, the hydration pass has its own limits (full-page.test.ts), and a capture at the
    // bounds takes Chromium seconds of CPU: on a busy machine more than the helper's default budget.
    const { screenshot } = await render(renderer, `${site.url}/huge`, 'screenshot.fullPage', { timeout: 30_000 });
    assert.ok(screenshot);
    const image = pngDimensions(screenshot.body);
    assert.deepEqual([image.width, image.height], [2560, FULL_PAGE_MAX_PIXELS]);
  });

  test('a full-page WebP of a 100 000 px page stops a pixel short of the PNG cap, at WebP\'s largest side', async () => {
    const { screenshot } = await render(renderer, `${site.url}/huge`, 'screenshot.fullPage&screenshot.type=webp');
    assert.ok(screenshot);
    assert.equal(screenshot.type, 'webp');
    assert.deepEqual([screenshot.width, screenshot.height], [2560, FULL_PAGE_MAX_PIXELS - 2]);
  });

  test('a WebP wider than WebP allows is a 400 naming screenshot.type, not an EFATAL, before the page is opened', async () => {
    const before = site.hits.length;
    const wide = render(renderer, `${site.url}/`, 'screenshot.type=webp&viewport.width=8192&viewport.height=400&viewport.deviceScaleFactor=2');
    await assert.rejects(wide, (error: any) => {
      assert.equal(error.code, 'EINVALQUERY');
      assert.match(error.message, /screenshot\.type.*16384 device pixels wide/);
      return true;
    });
    assert.equal(site.hits.length, before, 'the page was not requested');
  });

  test('an element is found where Chromium puts it, whatever the page says of its scrolling; only its part on the page is captured', async () => {
    const lying = await render(renderer, `${site.url}/lying`, 'screenshot.element=%23box&viewport.deviceScaleFactor=1');
    assert.deepEqual([lying.screenshot?.width, lying.screenshot?.height], [400, 300]);
    assert.deepEqual(pixel(png(lying.screenshot!.body), 200, 150), [0, 128, 255, 255]);
    const { screenshot } = await render(renderer, `${site.url}/left`, 'screenshot.element=%23box&viewport.deviceScaleFactor=1');
    assert.deepEqual([screenshot?.width, screenshot?.height], [100, 50]);
    assert.deepEqual(pixel(png(screenshot!.body), 50, 25), [0, 128, 255, 255]);
  });

  test('a framed capture is bounded with its frame: a framed full page stops where the framed image reaches the bounds', async () => {
    for (const type of ['png', 'webp']) {
      const { screenshot } = await render(renderer, `${site.url}/huge`, `screenshot.fullPage&screenshot.type=${type}&screenshot.overlay.browser=dark&screenshot.overlay.background=%23336699`, { timeout: 30_000 });
      assert.ok(screenshot, type);
      assert.equal(screenshot.type, type);
      // 2560 wide with 205-pixel margins: the area bound leaves 2970 × 14 122, of which 13 632 rows are the page.
      assert.deepEqual([screenshot.width, screenshot.height], [2970, 14_122], type);
      assert.ok(screenshot.width * screenshot.height <= MAX_DEVICE_AREA);
    }
  });

  test('a framed viewport capture is bounded with its frame: the scale gives way for it', async () => {
    const { screenshot } = await render(renderer, `${site.url}/`, 'screenshot&viewport.width=10000&viewport.height=10000&viewport.deviceScaleFactor=4&screenshot.overlay.browser=dark&screenshot.overlay.background=%23336699', { timeout: 30_000 });
    assert.ok(screenshot);
    const area = screenshot.width * screenshot.height;
    // It was 7512 × 7538 (+35 %).
    assert.ok(area <= MAX_DEVICE_AREA && area > 0.97 * MAX_DEVICE_AREA, `${screenshot.width}×${screenshot.height}`);
  });

  test('a framed WebP viewport too large for WebP is a 400 before the page is opened', async () => {
    const before = site.hits.length;
    const framed = render(renderer, `${site.url}/`, 'screenshot.type=webp&screenshot.overlay.background=%23336699&viewport.width=7100&viewport.height=100&viewport.deviceScaleFactor=2');
    await assert.rejects(framed, (error: any) => error.code === 'EINVALQUERY' && /framed, is 16472 device pixels wide/.test(error.message));
    assert.equal(site.hits.length, before);
  });

  test('degenerate sizes are captures, not failures: a sub-pixel element, a page lying about its height, a sub-pixel viewport', async () => {
    const thin = await render(renderer, `${site.url}/thin`, 'screenshot.element=%23thin&viewport.deviceScaleFactor=1');
    assert.deepEqual([thin.screenshot?.width, thin.screenshot?.height], [1, 1]);
    const lies = await render(renderer, `${site.url}/maxless`, 'screenshot.fullPage&viewport.deviceScaleFactor=1');
    assert.deepEqual([lies.screenshot?.width, lies.screenshot?.height], [1280, 800]);
    const tiny = await render(renderer, `${site.url}/`, 'screenshot&viewport.width=4&viewport.height=300&viewport.deviceScaleFactor=0.1');
    assert.deepEqual([tiny.screenshot?.width, tiny.screenshot?.height], [1, 75]);
  });

  test('a capture is bounded in area too: a wide full page stops sooner, a huge element is cut to fit', async () => {
    // 16 384 device pixels wide: MAX_DEVICE_AREA leaves 2560 rows (it used to be 16 384 × 16 384, 4.6 GB in Chromium).
    const full = await render(renderer, `${site.url}/huge`, 'screenshot.fullPage&viewport.width=8192&viewport.deviceScaleFactor=2');
    assert.deepEqual([full.screenshot?.width, full.screenshot?.height], [16_384, MAX_DEVICE_AREA / 16_384]);
    const drawn = pngDimensions(full.screenshot!.body);
    assert.deepEqual([drawn.width, drawn.height], [16_384, 2560]);
    // An element a million CSS px wide failed with EFATAL after seconds of Chromium's work.
    const element = await render(renderer, `${site.url}/wide`, 'screenshot.element=%23wide&viewport.deviceScaleFactor=2');
    assert.deepEqual([element.screenshot?.width, element.screenshot?.height], [16_384, 2560]);
    const webp = await render(renderer, `${site.url}/wide`, 'screenshot.type=webp&screenshot.element=%23wide&viewport.deviceScaleFactor=2');
    assert.equal(webp.screenshot?.type, 'webp');
    assert.equal(webp.screenshot?.width, 16_382);
    assert.ok(webp.screenshot!.width * webp.screenshot!.height <= MAX_DEVICE_AREA);
  });

  test('jpeg has JPEG magic bytes and its SOF size is the reported one; quality changes the bytes', async () => {
    const high = await render(renderer, `${site.url}/`, 'screenshot.type=jpeg&screenshot.quality=95');
    const low = await render(renderer, `${site.url}/`, 'screenshot.type=jpeg&screenshot.quality=10');
    assert.ok(high.screenshot && low.screenshot);
    assert.equal(high.screenshot.type, 'jpeg');
    assert.deepEqual(high.screenshot.body.subarray(0, 3), Buffer.from([0xff, 0xd8, 0xff]));
    assert.deepEqual(jpegDimensions(high.screenshot.body), { width: 2560, height: 1600 });
    assert.deepEqual([high.screenshot.width, high.screenshot.height], [2560, 1600]);
    assert.ok(low.screenshot.body.length < high.screenshot.body.length);
  });

  test('viewport overrides are merged over the device', async () => {
    const { screenshot } = await render(renderer, `${site.url}/`, 'screenshot&viewport.width=600&viewport.deviceScaleFactor=1');
    assert.ok(screenshot);
    const image = png(screenshot.body);
    assert.deepEqual([image.width, image.height], [600, 800]);
  });

  test('a device by name, in any case, sets the viewport and scale the page sees', async () => {
    const { screenshot } = await render(renderer, `${site.url}/width`, 'screenshot&device=iphone%2015', { capture: { html: true } });
    assert.ok(screenshot);
    const image = png(screenshot.body);
    assert.deepEqual([image.width, image.height], [393 * 3, 659 * 3]);
    const desktop = await render(renderer, `${site.url}/width`, 'device=Full%20HD', { capture: { html: true } });
    assert.match(desktop.html ?? '', /<title>1920x1<\/title>/);
  });

  test('an unknown device is EINVALQUERY naming `device`, before any page is loaded', async () => {
    const hits = site.hits.length;
    await assert.rejects(render(renderer, `${site.url}/`, 'screenshot&device=Nokia%203310'), (error: any) => {
      assert.equal(error.code, 'EINVALQUERY');
      assert.ok('device' in error.data);
      assert.match(error.message, /Macbook Pro 13/);
      return true;
    });
    assert.equal(site.hits.length, hits);
  });

  test('omitBackground keeps transparency in PNG', async () => {
    site.route('/clear', html('<!doctype html><style>html,body{background:transparent;margin:0}</style><p>x</p>'));
    const { screenshot } = await render(renderer, `${site.url}/clear`, 'screenshot.omitBackground');
    assert.ok(screenshot);
    assert.equal(pixel(png(screenshot.body), 2000, 1500)[3], 0);
  });
});

describe('pdf', () => {
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    site = await startServer({
      '/': html('<!doctype html><h1>Printed</h1>'),
      '/titled': html('<!doctype html><title>The printed page</title><h1>Printed</h1>'),
    });
    renderer = await testRenderer();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  test('is a PDF whose page size follows format and landscape', async () => {
    const a4 = await render(renderer, `${site.url}/`, 'pdf');
    assert.ok(a4.pdf);
    assert.equal(a4.pdf.body.subarray(0, 4).toString('latin1'), '%PDF');
    const [portrait] = mediaBoxes(a4.pdf.body);
    // A4 is 595.3 × 841.9 points (Chromium rounds through CSS pixels).
    assert.ok(portrait && Math.abs(portrait[2]! - 595.3) < 1 && Math.abs(portrait[3]! - 841.9) < 1, String(portrait));

    const letter = await render(renderer, `${site.url}/`, 'pdf.format=Letter&pdf.landscape');
    assert.ok(letter.pdf);
    const [landscape] = mediaBoxes(letter.pdf.body);
    // Letter is 612 × 792 points; landscape swaps them.
    assert.ok(landscape && Math.abs(landscape[2]! - 792) < 1 && Math.abs(landscape[3]! - 612) < 1, String(landscape));
  });

  test('a page range beyond the document is EPAGERANGE naming pdf.pageRanges', async () => {
    assert.equal(await codeOf(render(renderer, `${site.url}/`, 'pdf.pageRanges=5-6')), 'EPAGERANGE');
  });

  test('screenshot and pdf in one render share one page load', async () => {
    const hits = site.hits.length;
    const result = await render(renderer, `${site.url}/`, 'pdf&screenshot');
    assert.ok(result.pdf && result.screenshot);
    assert.deepEqual(site.hits.slice(hits).filter((hit) => hit === '/'), ['/']);
  });

  test('a framed screenshot whose background Chromium paints in the page leaves the PDF of the same render the page\'s', async () => {
    // A radial gradient is painted by Chromium, in the capture's own page (lib/browser/framing.ts): after the PDF.
    const query = 'pdf&screenshot&screenshot.overlay.browser=light&screenshot.overlay.background=radial-gradient(red,blue)';
    const result = await render(renderer, `${site.url}/titled`, query, { timeout: 30_000 });
    assert.ok(result.pdf && result.screenshot);
    // Chromium writes the printed document's title into the PDF: the background's document has none.
    assert.match(result.pdf.body.toString('latin1'), /\/Title \(The printed page\)/);
  });
});
