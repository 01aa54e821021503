/**
 * The fonts layer's one piece of logic: Noto Color Emoji's WOFF slices unwrapped into OpenType files FreeType can
 * read (the simulated Lambda in deploy.test.ts shows Chromium drawing them), without their SVG table.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { unwrapWoff } from '../../stacks/fonts-layer.ts';

const emojiDir = join(dirname(createRequire(import.meta.url).resolve('@fontsource/noto-color-emoji/package.json')), 'files');

/** The table directory of an OpenType file: tag → [offset, length]. */
function tables(font: Buffer): Map<string, [number, number]> {
  const found = new Map<string, [number, number]>();
  for (let i = 0; i < font.readUInt16BE(4); i++) {
    const record = 12 + i * 16;
    found.set(font.toString('latin1', record, record + 4), [font.readUInt32BE(record + 8), font.readUInt32BE(record + 12)]);
  }
  return found;
}

test('a WOFF file unwraps into OpenType: same tables but SVG, each inflated to its size, aligned, inside the file', () => {
  const woff = readFileSync(join(emojiDir, 'noto-color-emoji-emoji-400-normal.woff'));
  const font = unwrapWoff(woff);
  assert.equal(font.readUInt32BE(0), 0x00010000, 'TrueType outlines');
  const directory = tables(font);
  const expected = new Map<string, number>();
  for (let i = 0; i < woff.readUInt16BE(12); i++) expected.set(woff.toString('latin1', 44 + i * 20, 48 + i * 20), woff.readUInt32BE(44 + i * 20 + 12));
  expected.delete('SVG ');
  assert.deepEqual([...directory.keys()], [...expected.keys()].sort());
  for (const [tag, [offset, length]] of directory) {
    assert.equal(length, expected.get(tag), tag);
    assert.equal(offset % 4, 0, `${tag} is 4-byte aligned`);
    assert.ok(offset + length <= font.length, `${tag} lies inside the file`);
  }
  // The inflated head table still says what a head table says (its magic number, OpenType spec).
  const [head] = directory.get('head')!;
  assert.equal(font.readUInt32BE(head + 12), 0x5f0f3cf5);
  assert.ok(font.length < woff.length, 'smaller without the SVG glyphs');
});

test('anything but WOFF 1.0 is refused', () => {
  const woff2 = readFileSync(join(emojiDir, readdirSync(emojiDir).find((name) => name.endsWith('.woff2'))!));
  assert.throws(() => unwrapWoff(woff2), /not a WOFF file/);
});
