import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'puppeteer-core';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { Budget } from '../../lib/time/budget.ts';
import { GlanceError } from '../../lib/errors.ts';
import { AddressPolicy } from '../../lib/fetch/index.ts';
import { applyOverlay, imageFetcher, type Capture, type OverlayDeps } from '../../lib/browser/overlay.ts';
import type { Encoding } from '../../lib/media/encode.ts';
import type { OverlayOptions } from '../../lib/query/options.ts';
import { launchBareBrowser } from '../helpers/browser.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

type Rgb = [number, number, number];

let browser: Browser;
let server: TestServer;
let renders = 0;

/** A solid PNG, optionally with vertical one-pixel stripes of a second colour (to catch any resampling). */
function png(width: number, height: number, color: Rgb, stripe?: Rgb): Buffer {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = stripe && x % 2 === 1 ? stripe : color;
      image.data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return PNG.sync.write(image);
}

const capture = (width: number, height: number, color: Rgb, stripe?: Rgb): Capture => ({
  body: png(width, height, color, stripe),
  type: 'png',
  width,
  height,
});

function pixel(image: PNG, x: number, y: number): [number, number, number, number] {
  const i = (y * image.width + x) * 4;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!, image.data[i + 3]!];
}

function assertNear(actual: readonly number[], expected: Rgb, tolerance: number, what: string): void {
  const off = expected.some((value, i) => Math.abs(value - actual[i]!) > tolerance);
  assert.ok(!off, `${what}: expected about rgb(${expected.join(', ')}), got rgb(${actual.slice(0, 3).join(', ')})`);
}

/** Decodes the output and checks it is exactly the size the overlay reported. */
function decode(result: Capture): PNG {
  assert.equal(result.type, 'png');
  const image = PNG.sync.read(result.body);
  assert.equal(image.width, result.width, 'reported width is the image width');
  assert.equal(image.height, result.height, 'reported height is the image height');
  return image;
}

/** A JPEG's size from its start-of-frame segment. */
function jpegSize(body: Buffer): { width: number; height: number } {
  let at = 2;
  while (at < body.length) {
    const marker = body[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: body.readUInt16BE(at + 5), width: body.readUInt16BE(at + 7) };
    }
    at += 2 + body.readUInt16BE(at + 2);
  }
  throw new Error('no start-of-frame segment');
}

const renderHtml: OverlayDeps['renderHtml'] = async (html, viewport) => {
  renders++;
  const page = await browser.newPage();
  try {
    await page.setViewport(viewport);
    await page.setContent(html, { waitUntil: 'load' });
    return Buffer.from(await page.screenshot({ type: 'png' }));
  } finally {
    await page.close();
  }
};

const fetchOptions = (policy: AddressPolicy) => ({
  policy,
  // A fresh budget for each fetch (the fetcher spreads its options per call): one made at import would run out
  // while a loaded machine is still launching Chromium for the first tests.
  get budget() {
    return new Budget(5000);
  },
  userAgent: 'GlanceTest/1.0',
  maxBytes: 1024 * 1024,
});
const localDeps: OverlayDeps = {
  renderHtml,
  fetchImage: imageFetcher(fetchOptions(AddressPolicy.fromSetting('127.0.0.1'))),
};

const framed = (input: Capture, options: OverlayOptions, scale = 1, deps = localDeps, output: Encoding = { type: 'png', quality: 80 }) =>
  applyOverlay(input, options, scale, output, deps);

const overlay = (browserTheme: OverlayOptions['browser'], background?: string): OverlayOptions => ({
  browser: browserTheme,
  background,
});

const BLUE: Rgb = [51, 102, 204];
const ORANGE: Rgb = [255, 136, 0];

before(async () => {
  browser = await launchBareBrowser();
  server = await startServer({
    '/bg.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png(64, 48, ORANGE)),
    '/octet.png': (_req, res) =>
      void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png(64, 48, ORANGE)),
    '/page.html': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>hi</title>'),
    '/missing.png': (_req, res) => void res.writeHead(404, { 'content-type': 'image/png' }).end(),
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('browser frame', () => {
  test('a light window adds a bright title bar above the capture, drawn at the capture’s own pixels', async () => {
    const result = await framed(capture(400, 300, BLUE), overlay('light'));
    assert.equal(result.width, 400);
    assert.equal(result.height, 340);
    const image = decode(result);
    const bar = pixel(image, 320, 20);
    assert.ok(bar.slice(0, 3).every((channel) => channel > 210), `light title bar is bright: ${bar.join(',')}`);
    assert.deepEqual(pixel(image, 200, 40 + 150), [...BLUE, 255], 'the capture’s centre keeps its colour');
    assert.deepEqual(pixel(image, 399, 339), [...BLUE, 255], 'the capture reaches the bottom-right pixel');
    assert.equal(pixel(image, 0, 0)[3], 0, 'the rounded top corner is transparent');
  });

  test('a dark window differs: its title bar is dark where the light one is bright', async () => {
    const input = capture(400, 300, BLUE);
    const light = decode(await framed(input, overlay('light')));
    const dark = decode(await framed(input, overlay('dark')));
    for (const [x, y] of [[320, 20], [10, 35], [200, 5]] as const) {
      const lightBar = pixel(light, x, y);
      const darkBar = pixel(dark, x, y);
      const what = `dark title bar at ${x},${y}: ${darkBar.join(',')}`;
      assert.ok(darkBar.slice(0, 3).every((channel) => channel < 80), what);
      assert.ok(lightBar[0] - darkBar[0] > 120, `light (${lightBar.join(',')}) vs dark (${darkBar.join(',')})`);
    }
    assert.deepEqual(pixel(dark, 200, 190), [...BLUE, 255]);
  });

  test('at device scale factor 2 the artwork doubles and the capture is copied pixel for pixel', async () => {
    const input = capture(800, 600, BLUE, ORANGE);
    const result = await framed(input, overlay('dark'), 2);
    assert.deepEqual([result.width, result.height], [800, 680]);
    const image = decode(result);
    for (const x of [0, 1, 398, 399, 400, 401, 799]) {
      const expected = x % 2 === 1 ? ORANGE : BLUE;
      assert.deepEqual(pixel(image, x, 80 + 300), [...expected, 255], `stripe at x=${x} survives unresampled`);
    }
  });

  test('a fractional device scale factor still gives whole pixels and the exact reported size', async () => {
    const result = await framed(capture(600, 450, BLUE), overlay('light', '#222222'), 1.5);
    const margin = Math.max(60, Math.round(600 * 0.08));
    assert.deepEqual([result.width, result.height], [600 + 2 * margin, 450 + 60 + 2 * margin]);
    const image = decode(result);
    assert.deepEqual(pixel(image, margin + 300, margin + 60 + 225), [...BLUE, 255]);
  });

  test('without a browser or a background the capture comes back untouched', async () => {
    const input = capture(40, 30, BLUE);
    const before = renders;
    assert.equal(await framed(input, overlay(undefined)), input);
    assert.equal(renders, before);
  });
});

describe('background', () => {
  test('a gradient fills the margin around the window, as given', async () => {
    const gradient = 'linear-gradient(to right, #ff0000, #0000ff)';
    const result = await framed(capture(400, 300, BLUE), overlay('light', gradient));
    assert.deepEqual([result.width, result.height], [480, 420], 'a 40 px margin on every side');
    const image = decode(result);
    assertNear(pixel(image, 0, 0), [255, 0, 0], 10, 'top-left is red');
    assertNear(pixel(image, 479, 0), [0, 0, 255], 10, 'top-right is blue');
    assert.deepEqual(pixel(image, 240, 40 + 40 + 150), [...BLUE, 255], 'the capture sits inside the frame');
  });

  test('a background Chromium draws smaller than asked (its viewport bounded) is scaled to the frame', async () => {
    const halved: OverlayDeps['renderHtml'] = (html, viewport) => renderHtml(html, { ...viewport, deviceScaleFactor: 0.5 });
    const result = await framed(capture(400, 300, BLUE), overlay('light', 'radial-gradient(#ff0000, #ff0000)'), 1, { ...localDeps, renderHtml: halved });
    assert.deepEqual([result.width, result.height], [480, 420]);
    const image = decode(result);
    assertNear(pixel(image, 479, 419), [255, 0, 0], 10, 'the bottom-right corner is drawn');
  });

  test('a framed WebP beyond WebP\'s largest side is a 400 naming screenshot.type, before any drawing', async () => {
    const before = renders;
    await assert.rejects(framed(capture(100, 16_300, BLUE), overlay('light', 'radial-gradient(red, blue)'), 1, localDeps, { type: 'webp', quality: 80 }), (error: any) => {
      assert.equal(error.code, 'EINVALQUERY');
      assert.match(error.message, /screenshot\.type.*framed is 180×16420/);
      return true;
    });
    assert.equal(renders, before, 'no background was drawn');
  });

  test('a background is kept for the next capture of its look and size, unless it is larger than 32 MB', async () => {
    const look = overlay('light', 'radial-gradient(#ff0000, #00ff00)');
    const small = capture(400, 300, BLUE);
    await framed(small, look);
    let before = renders;
    await framed(small, look);
    assert.equal(renders, before, 'the small one was kept');
    // Framed, 3480 × 3520 RGB: 36.8 MB.
    const large = capture(3000, 3000, BLUE);
    await framed(large, look);
    before = renders;
    await framed(large, look);
    assert.equal(renders, before + 1, 'the large one was painted again');
  });

  test('a colour without a browser sets the bare capture on it, with a margin of 8% of its width', async () => {
    const result = await framed(capture(1000, 500, BLUE), overlay(undefined, 'rgb(10, 200, 30)'));
    assert.deepEqual([result.width, result.height], [1160, 660]);
    const image = decode(result);
    for (const [x, y] of [[0, 0], [1159, 0], [0, 659], [1159, 20]] as const) {
      assertNear(pixel(image, x, y), [10, 200, 30], 2, `corner ${x},${y} has the colour`);
    }
    assert.deepEqual(pixel(image, 580, 330), [...BLUE, 255]);
    assert.notDeepEqual(pixel(image, 80, 80), [...BLUE, 255], 'the capture’s corners are rounded off');
  });

  test('an image URL is fetched through the guard, inlined, and covers the background', async () => {
    const before = server.hits.length;
    const result = await framed(capture(400, 300, BLUE), overlay('dark', `${server.url}/bg.png`));
    const image = decode(result);
    for (const [x, y] of [[0, 0], [479, 0], [0, 419], [479, 419]] as const) {
      assertNear(pixel(image, x, y), ORANGE, 3, `corner ${x},${y} comes from the image`);
    }
    assert.deepEqual(server.hits.slice(before), ['/bg.png'], 'fetched once, by Glance, never by the browser');
  });

  test('an image served as octet-stream is recognised by its bytes', async () => {
    const result = await framed(capture(400, 300, BLUE), overlay(undefined, `${server.url}/octet.png`));
    assertNear(pixel(decode(result), 0, 0), ORANGE, 3, 'corner comes from the image');
  });

  test('an image at a private address is EFORBIDDENURL and nothing reaches it', async () => {
    const strict: OverlayDeps = { renderHtml, fetchImage: imageFetcher(fetchOptions(AddressPolicy.fromSetting(''))) };
    const before = { hits: server.hits.length, renders };
    await assert.rejects(
      framed(capture(400, 300, BLUE), overlay('light', `${server.url}/bg.png`), 1, strict),
      (error: unknown) => error instanceof GlanceError && error.code === 'EFORBIDDENURL',
    );
    assert.equal(server.hits.length, before.hits, 'the test server saw no request');
    assert.equal(renders, before.renders, 'nothing was rendered');
  });

  for (const [path, reason] of [
    ['/page.html', /not an image/],
    ['/missing.png', /HTTP 404/],
  ] as const) {
    test(`a background URL answering ${path} is EINVALOVERLAYBG`, async () => {
      await assert.rejects(
        framed(capture(40, 30, BLUE), overlay(undefined, `${server.url}${path}`)),
        (error: unknown) =>
          error instanceof GlanceError && error.code === 'EINVALOVERLAYBG' && reason.test(error.message),
      );
    });
  }

  test('CSS that could load a resource or leave the declaration is refused before any rendering', async () => {
    const before = { hits: server.hits.length, renders };
    for (const value of [
      `linear-gradient(red, blue), url(${server.url}/bg.png)`,
      `image-set("${server.url}/bg.png" 1x)`,
      'red; } body { display: none',
      'red</style><img src=x>',
      'var(--x)',
    ]) {
      await assert.rejects(
        framed(capture(40, 30, BLUE), overlay('light', value)),
        (error: unknown) => error instanceof GlanceError && error.code === 'EINVALOVERLAYBG',
        value,
      );
    }
    assert.equal(server.hits.length, before.hits);
    assert.equal(renders, before.renders);
  });
});

describe('pixels as Chromium hands them over', () => {
  /** The same striped capture as `capture` gives, as an RGB PNG (no alpha channel, like Chromium's screenshots). */
  const rgbCapture = async (width: number, height: number): Promise<Capture> => {
    const rgba = PNG.sync.read(png(width, height, BLUE, ORANGE)).data;
    const rgb = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) rgba.copy(rgb, i * 3, i * 4, i * 4 + 3);
    const body = await sharp(rgb, { raw: { width, height, channels: 3 } }).png().toBuffer();
    assert.equal(body[25], 2, 'colour type 2: RGB');
    return { body, type: 'png', width, height };
  };

  test('an RGB capture is framed exactly as the same pixels with an alpha channel are, rounded corners included', async () => {
    const look = overlay('dark', 'linear-gradient(135deg, #fbc2eb, #a6c1ee)');
    const fromRgb = decode(await framed(await rgbCapture(400, 300), look, 2));
    const fromRgba = decode(await framed(capture(400, 300, BLUE, ORANGE), look, 2));
    assert.deepEqual([fromRgb.width, fromRgb.height], [fromRgba.width, fromRgba.height]);
    assert.ok(fromRgb.data.equals(fromRgba.data), 'every pixel the same');
    const margin = 80;
    assert.deepEqual(pixel(fromRgb, margin + 1, margin + 80 + 150), [...ORANGE, 255], 'a stripe of the capture, copied');
    assert.notDeepEqual(pixel(fromRgb, margin, margin + 80 + 299), [...BLUE, 255], 'the bottom-left corner is rounded off');
  });

  test('a transparent capture (omitBackground) shows the background through it', async () => {
    const image = new PNG({ width: 200, height: 100 });
    for (let i = 0; i < 200 * 100; i++) image.data.set(i % 200 < 100 ? [...BLUE, 255] : [0, 0, 0, 0], i * 4);
    const result = decode(await framed({ body: PNG.sync.write(image), type: 'png', width: 200, height: 100 }, overlay(undefined, 'rgb(10, 200, 30)')));
    const margin = 40;
    assert.deepEqual(pixel(result, margin + 50, margin + 50), [...BLUE, 255]);
    assertNear(pixel(result, margin + 150, margin + 50), [10, 200, 30], 2, 'the transparent half shows the background');
  });
});

describe('output format', () => {
  test('a jpeg capture comes back as a jpeg of the reported size', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 400, height: 300, deviceScaleFactor: 1 });
    await page.setContent('<body style="margin:0;background:#3366cc"></body>');
    const body = Buffer.from(await page.screenshot({ type: 'jpeg', quality: 90 }));
    await page.close();
    const input: Capture = { body, type: 'jpeg', width: 400, height: 300 };
    const result = await framed(input, overlay('light', '#ffffff'), 1, localDeps, { type: 'jpeg', quality: 70 });
    assert.equal(result.type, 'jpeg');
    assert.deepEqual([...result.body.subarray(0, 3)], [0xff, 0xd8, 0xff], 'JPEG magic bytes');
    assert.deepEqual(jpegSize(result.body), { width: result.width, height: result.height });
    assert.deepEqual([result.width, result.height], [480, 420]);
  });
});
