import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isStorageKey } from '../../lib/storage/index.ts';

const hash = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);

test('isStorageKey accepts exactly a lowercase SHA-256 hex and a known extension', () => {
  for (const extension of ['png', 'jpg', 'pdf', 'webp', 'json', 'html', 'csv']) assert.equal(isStorageKey(`${hash}.${extension}`), true);
  for (const key of [
    `${hash}.jpeg`,
    `${hash}.htm`,
    `${hash}.js`,
    `${hash}.PNG`,
    `${hash.toUpperCase()}.png`,
    `${hash.slice(1)}.png`,
    `${hash}0.png`,
    `${hash}.png\n`,
    `${hash}png`,
    `../${hash}.png`,
    `a/${hash}.png`,
    `${'g'.repeat(64)}.png`,
    '',
  ]) {
    assert.equal(isStorageKey(key), false, JSON.stringify(key));
  }
});

test('isStorageKey accepts a named key only when the name is in its safe form', () => {
  for (const name of ['invoice', 'Résumé 报告', 'v1.2', '_CON']) assert.equal(isStorageKey(`${hash}/${name}.pdf`), true, name);
  for (const name of ['', '.', '..', '../x', 'a/b', 'a\\b', 'CON', 'x.pdf', ' x', 'x ', 'a%2Fb', 'a\u0000b', 'a\u202eb', 'x'.repeat(129)]) {
    assert.equal(isStorageKey(`${hash}/${name}.pdf`), false, JSON.stringify(name));
  }
  assert.equal(isStorageKey(`${hash}/a/b.pdf`), false);
  assert.equal(isStorageKey(`${hash}//a.pdf`), false);
});
