import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contrastRatio, rgbOf } from '../../lib/palette/contrast.ts';
import sharp from 'sharp';
import { MAX_DECODE_PIXELS, MAX_DECODE_SIDE } from '../../lib/media/decode-bounds.ts';
import { paletteOf, pickColors } from '../../lib/palette/index.ts';
import { avifOf, gifOf, jpegOf, photoLike, pngOf, webpOf, type Paint } from './images.ts';

const ratio = (a: string, b: string) => contrastRatio(rgbOf(a), rgbOf(b));
/** Channels within `tolerance` of each other: JPEG's rounding moves a flat colour by a step or two. */
const near = (hex: string, expected: string, tolerance = 6) =>
  rgbOf(hex).every((value, index) => Math.abs(value - rgbOf(expected)[index]!) <= tolerance);

describe('palette', () => {
  test('a solid image is its one colour, with black or white for text', async () => {
    const fields = await paletteOf(pngOf(64, 48, () => [255, 0, 0]), 5);
    assert.ok(fields);
    assert.deepEqual(fields.palette, ['#FF0000']);
    assert.equal(fields.background_color, '#FF0000');
    assert.equal(fields.color, '#000000');
    assert.ok(ratio(fields.color, fields.background_color) >= 4.5);
    assert.equal(fields.alternative_color, '#FFFFFF');
  });

  test('two colours: the larger is the background and the other, contrasting enough, is the text colour', async () => {
    // Three quarters navy, one quarter pale yellow.
    const fields = await paletteOf(pngOf(80, 80, (x) => (x < 60 ? [20, 30, 90] : [250, 240, 180])), 5);
    assert.ok(fields);
    assert.equal(fields.palette.length, 2);
    assert.ok(near(fields.background_color, '#141E5A'), fields.background_color);
    assert.ok(near(fields.color, '#FAF0B4'), fields.color);
    assert.ok(ratio(fields.color, fields.background_color) >= 4.5);
  });

  test('a photo-like JPEG: several colours, most dominant first, text colour readable', async () => {
    const fields = await paletteOf(await jpegOf(640, 480, photoLike), 5);
    assert.ok(fields);
    assert.ok(fields.palette.length >= 3, fields.palette.join(' '));
    assert.equal(fields.background_color, fields.palette[0]);
    const [r, g, b] = rgbOf(fields.background_color);
    assert.ok(b > r && b > g, `the sky is the largest area, got ${fields.background_color}`);
    assert.ok(ratio(fields.color, fields.background_color) >= 4.5);
    assert.notEqual(fields.alternative_color, fields.color);
  });

  test('a low-contrast palette falls back to black or white for `color`', () => {
    const picked = pickColors(['#777777', '#888888', '#7A7A7A']);
    assert.ok(ratio(picked.color, picked.background_color) >= 4.5);
    assert.ok(['#000000', '#FFFFFF'].includes(picked.color));
  });

  test('transparent pixels do not count', async () => {
    const fields = await paletteOf(pngOf(40, 40, (x) => (x < 30 ? [0, 0, 0, 0] : [0, 128, 0, 255])), 5);
    assert.deepEqual(fields?.palette, ['#008000']);
  });

  test('WebP, lossy and lossless, like the JPEG and PNG of the same picture', async () => {
    for (const lossless of [false, true]) {
      const fields = await paletteOf(await webpOf(80, 80, (x) => (x < 60 ? [20, 30, 90] : [250, 240, 180]), lossless), 5);
      assert.ok(fields, `lossless: ${lossless}`);
      assert.ok(near(fields.background_color, '#141E5A'), fields.background_color);
      assert.ok(near(fields.color, '#FAF0B4'), fields.color);
    }
    const photo = await paletteOf(await webpOf(640, 480, photoLike), 5);
    const [r, g, b] = rgbOf(photo!.background_color);
    assert.ok(b > r && b > g, `the sky is the largest area, got ${photo!.background_color}`);
  });

  test('GIF and AVIF are decoded too', async () => {
    const twoColours: Paint = (x) => (x < 60 ? [20, 30, 90] : [250, 240, 180]);
    for (const bytes of [await gifOf(80, 80, twoColours), await avifOf(80, 80, twoColours)]) {
      const fields = await paletteOf(bytes, 5);
      assert.ok(fields && near(fields.background_color, '#141E5A', 10), fields?.background_color);
    }
  });

  test('SVG, ICO, broken and truncated files have no palette', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>');
    assert.equal(await paletteOf(svg, 5), undefined);
    assert.equal(await paletteOf(Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]), 5), undefined);
    assert.equal(await paletteOf(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 5), undefined);
    assert.equal(await paletteOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 5), undefined);
    assert.equal(await paletteOf(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), 5), undefined);
  });

  test('an image whose header claims more than its format may is refused before decoding; one under it is decoded', async () => {
    const solid = (width: number, height: number, format: 'png' | 'jpeg' | 'gif') =>
      sharp({ create: { width, height, channels: 3, background: '#336699' } })[format]().toBuffer();
    assert.equal(MAX_DECODE_PIXELS.png, 16_000_000);
    assert.deepEqual((await paletteOf(await solid(4000, 4000, 'png'), 5))?.palette, ['#336699']);
    assert.equal(await paletteOf(await solid(4000, 4001, 'png'), 5), undefined);
    assert.equal(MAX_DECODE_PIXELS.gif, 8_000_000);
    assert.equal(await paletteOf(await solid(4000, 2001, 'gif'), 5), undefined);
    // A JPEG is decoded at an eighth of its size a side: 36 MP are allowed, 42 are not.
    assert.equal((await paletteOf(await solid(6000, 6000, 'jpeg'), 5))?.palette.length, 1);
    assert.equal(await paletteOf(await solid(7000, 6000, 'jpeg'), 5), undefined);
  });

  test('a strip taller than WebP allows is refused at its header: 1 × 39 000 000 pixels took 11 s of CPU to decode', async () => {
    const strip = await sharp({ create: { width: 1, height: MAX_DECODE_SIDE + 1, channels: 3, background: '#336699' } }).png().toBuffer();
    assert.equal(await paletteOf(strip, 5), undefined);
    const tall = await sharp({ create: { width: 1, height: MAX_DECODE_SIDE, channels: 3, background: '#336699' } }).png().toBuffer();
    assert.deepEqual((await paletteOf(tall, 5))?.palette, ['#336699']);
  });

  test('a 4000×3000 JPEG is summarised in bounded time', async (t) => {
    const big = await jpegOf(4000, 3000, (x, y) => photoLike(Math.floor(x / 6.25), Math.floor(y / 6.25)));
    await paletteOf(await jpegOf(16, 16, photoLike), 5); // libvips is loaded once per process
    const started = performance.now();
    const fields = await paletteOf(big, 5);
    const ms = performance.now() - started;
    t.diagnostic(`palette of a 4000×3000 JPEG (${big.length} bytes): ${Math.round(ms)} ms`);
    assert.ok(fields && fields.palette.length >= 3);
    // The target is 50 ms on an idle core (bench/palette); a shared test machine gets a wide margin.
    assert.ok(ms < 2000, `${Math.round(ms)} ms`);
  });
});
