/**
 * The overlay's own painting of CSS backgrounds (lib/browser/overlay/paint.ts): colours as librsvg reads them,
 * over white; linear gradients along CSS's gradient line; and undefined (Chromium paints) for everything else.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isOpaque } from '../../lib/browser/overlay/compose.ts';
import { paintCss, resolveColour, type Painted } from '../../lib/browser/overlay/paint.ts';
import { loadSharp } from '../../lib/media/sharp.ts';

const sharp = await loadSharp();

const at = (image: Painted, x: number, y: number): number[] => {
  const i = (y * image.width + x) * 4;
  return [...image.data.subarray(i, i + 3)];
};

function near(actual: readonly number[], expected: readonly number[], tolerance: number, what: string): void {
  assert.ok(actual.every((value, i) => Math.abs(value - expected[i]!) <= tolerance), `${what}: ${actual.join(',')} vs ${expected.join(',')}`);
}

describe('colours', () => {
  test('names, hex and functions resolve; a translucent colour is what it paints over white', async () => {
    assert.deepEqual(await resolveColour(sharp, '#336699'), [51, 102, 153]);
    assert.deepEqual(await resolveColour(sharp, 'rebeccapurple'), [102, 51, 153]);
    assert.deepEqual(await resolveColour(sharp, 'hsl(120, 50%, 50%)'), [64, 191, 64]);
    near((await resolveColour(sharp, 'rgba(0, 0, 0, 0.5)'))!, [128, 128, 128], 1, 'half black on white');
    assert.deepEqual(await resolveColour(sharp, 'transparent'), [255, 255, 255]);
  });

  test('what librsvg cannot read is undefined, never black', async () => {
    for (const value of ['oklch(70% 0.1 250)', 'color-mix(in srgb, red, blue)', 'notacolour', 'red"/><script/>']) {
      assert.equal(await resolveColour(sharp, value), undefined, value);
    }
  });
});

describe('linear gradients', () => {
  test('to right: first colour at the left edge, last at the right, the mix between', async () => {
    const image = (await paintCss(sharp, 'linear-gradient(to right, #ff0000, #0000ff)', 101, 4))!;
    near(at(image, 0, 0), [255, 0, 0], 3, 'left');
    near(at(image, 100, 3), [0, 0, 255], 3, 'right');
    near(at(image, 50, 2), [128, 0, 128], 2, 'middle');
  });

  test('an angle runs along CSS’s gradient line: 135deg goes from the top-left corner to the bottom-right', async () => {
    const image = (await paintCss(sharp, 'linear-gradient(135deg, #000000, #ffffff)', 300, 100))!;
    near(at(image, 0, 0), [0, 0, 0], 3, 'top-left');
    near(at(image, 299, 99), [255, 255, 255], 3, 'bottom-right');
    // The 50% line of a corner-to-corner gradient passes through the centre.
    near(at(image, 150, 50), [128, 128, 128], 3, 'centre');
  });

  test('stop positions and repetition', async () => {
    const stripes = (await paintCss(sharp, 'repeating-linear-gradient(90deg, red 0px, red 10px, blue 10px, blue 20px)', 60, 2))!;
    near(at(stripes, 5, 0), [255, 0, 0], 0, 'first stripe');
    near(at(stripes, 15, 0), [0, 0, 255], 0, 'second stripe');
    near(at(stripes, 25, 0), [255, 0, 0], 0, 'repeated');
    const held = (await paintCss(sharp, 'linear-gradient(to bottom, lime 40%, black 60%)', 2, 100))!;
    near(at(held, 0, 10), [0, 255, 0], 0, 'before the first stop: its colour');
    near(at(held, 0, 90), [0, 0, 0], 0, 'after the last stop: its colour');
  });

  test('what only a browser paints is undefined', async () => {
    for (const value of [
      'radial-gradient(circle, red, blue)',
      'conic-gradient(red, blue)',
      'linear-gradient(in oklch, red, blue)',
      'linear-gradient(red, 30%, blue)',
      'linear-gradient(red 2em, blue)',
      'linear-gradient(oklch(70% 0.1 250), blue)',
      'linear-gradient(red 50%, blue 50%)',
    ]) {
      assert.equal(await paintCss(sharp, value, 10, 10), undefined, value);
    }
  });
});

describe('opacity', () => {
  test('an image is opaque only when every alpha is 255', () => {
    const pixels = Buffer.alloc(4 * 1000, 255);
    assert.equal(isOpaque(pixels), true);
    pixels[4 * 999 + 3] = 254;
    assert.equal(isOpaque(pixels), false);
    pixels[4 * 999 + 3] = 255;
    pixels[4 * 500] = 0;
    assert.equal(isOpaque(pixels), true, 'a colour channel is not alpha');
  });
});
