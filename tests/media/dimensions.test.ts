import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { imageDimensions } from '../../lib/media/dimensions.ts';
import { sniff } from '../../lib/media/sniff.ts';
import { svgSize } from '../../lib/media/svg.ts';
import * as make from '../ping/fixtures.ts';

/** Sniffs, then sizes: the path every probe takes. */
function sized(bytes: Buffer): { type: string | undefined; width?: number; height?: number } {
  const type = sniff(bytes);
  return { type, ...(type ? imageDimensions(type, bytes) : undefined) };
}

describe('image dimensions from the first bytes', () => {
  test('PNG', () => assert.deepEqual(sized(make.png(300, 200)), { type: 'png', width: 300, height: 200 }));

  test('PNG from only its first 33 bytes', () => {
    assert.deepEqual(sized(make.png(640, 480).subarray(0, 33)), { type: 'png', width: 640, height: 480 });
  });

  test('GIF', () => assert.deepEqual(sized(make.gif(17, 9)), { type: 'gif', width: 17, height: 9 }));

  test('BMP, rows stored top-down (negative height)', () => {
    assert.deepEqual(sized(make.bmp(120, 80)), { type: 'bmp', width: 120, height: 80 });
  });

  test('WebP lossy (VP8), lossless (VP8L) and extended (VP8X)', () => {
    assert.deepEqual(sized(make.webpLossy(550, 368)), { type: 'webp', width: 550, height: 368 });
    assert.deepEqual(sized(make.webpLossless(1000, 751)), { type: 'webp', width: 1000, height: 751 });
    assert.deepEqual(sized(make.webpExtended(4000, 3000)), { type: 'webp', width: 4000, height: 3000 });
  });

  test('ICO: the largest entry, 0 meaning 256', () => {
    assert.deepEqual(sized(make.ico([16, 48, 32])), { type: 'ico', width: 48, height: 48 });
    assert.deepEqual(sized(make.ico([16, 0, 48])), { type: 'ico', width: 256, height: 256 });
  });

  test('AVIF from meta/iprp/ipco/ispe', () => {
    assert.deepEqual(sized(make.avif(1920, 1080)), { type: 'avif', width: 1920, height: 1080 });
  });

  test('JPEG baseline and progressive', () => {
    assert.deepEqual(sized(make.jpeg(800, 600)), { type: 'jpg', width: 800, height: 600 });
    assert.deepEqual(sized(make.jpeg(801, 601, { progressive: true })), { type: 'jpg', width: 801, height: 601 });
  });

  test('JPEG: EXIF orientations 5–8 are a quarter turn, so width and height swap', () => {
    for (const orientation of [1, 2, 3, 4]) {
      assert.deepEqual(sized(make.jpeg(800, 600, { orientation })), { type: 'jpg', width: 800, height: 600 }, `orientation ${orientation}`);
    }
    for (const orientation of [5, 6, 7, 8]) {
      assert.deepEqual(sized(make.jpeg(800, 600, { orientation })), { type: 'jpg', width: 600, height: 800 }, `orientation ${orientation}`);
    }
  });

  test('JPEG cut before its frame header: no size rather than a guess', () => {
    const whole = make.jpeg(800, 600, { padding: 100_000 });
    assert.deepEqual(sized(whole.subarray(0, 65536)), { type: 'jpg' });
    assert.deepEqual(sized(whole), { type: 'jpg', width: 800, height: 600 });
  });
});

describe('SVG size', () => {
  const svg = (root: string, before = ''): Buffer => Buffer.from(`${before}${root}<rect/></svg>`);

  test('width and height attributes, with units', () => {
    assert.deepEqual(svgSize(svg('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">')), { width: 120, height: 40 });
    assert.deepEqual(svgSize(svg(`<svg width='10px' height="1in">`)), { width: 10, height: 96 });
    assert.deepEqual(svgSize(svg('<svg width="2em" height="30pt">')), { width: 32, height: 40 });
  });

  test('viewBox when a size is missing or relative, with commas or runs of spaces', () => {
    assert.deepEqual(svgSize(svg('<svg viewBox="0 0 24 24">')), { width: 24, height: 24 });
    assert.deepEqual(svgSize(svg('<svg viewBox="0,0,300,150">')), { width: 300, height: 150 });
    assert.deepEqual(svgSize(svg('<svg viewBox=" 0  0   64 32 ">')), { width: 64, height: 32 });
    assert.deepEqual(svgSize(svg('<svg width="100%" height="100%" viewBox="0 0 5 6">')), { width: 5, height: 6 });
    assert.deepEqual(svgSize(svg('<svg width="200" viewBox="0 0 100 50">')), { width: 200, height: 100 });
    assert.deepEqual(svgSize(svg('<svg height="10" viewBox="0 0 100 50">')), { width: 20, height: 10 });
  });

  test('the root past a long prolog, comment and DOCTYPE with entities', () => {
    const prolog = `\uFEFF<?xml version="1.0"?>\n<!-- ${'Generator: x '.repeat(200)} <svg width="1" height="1"> -->\n` +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [<!ENTITY ns "http://x"> <!ENTITY s "<svg width=\'2\' height=\'2\'>">]>\n';
    const bytes = svg('<svg version="1.1" width="48" height="36">', prolog);
    assert.equal(sniff(bytes), 'svg');
    assert.deepEqual(svgSize(bytes), { width: 48, height: 36 });
  });

  test('no usable size: undefined', () => {
    assert.equal(svgSize(svg('<svg>')), undefined);
    assert.equal(svgSize(svg('<svg width="100%" height="100%">')), undefined);
    assert.equal(svgSize(svg('<svg viewBox="0 0 0 10">')), undefined);
    assert.equal(svgSize(Buffer.from('<html><body>hi</body></html>')), undefined);
  });
});

test('AVIF under the generic HEIF brand, listing avif as compatible', () => {
  const file = make.avif(64, 48);
  file.write('mif1', 8, 'latin1');
  assert.deepEqual(sized(file), { type: 'avif', width: 64, height: 48 });
});
