import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

describe('embed', () => {
  test('is a dot path into data', () => {
    assert.equal(parse('embed=screenshot.url').embed, 'screenshot.url');
    assert.equal(parse('embed=+title+').embed, 'title');
    assert.equal(parse('embed=image.size_pretty').embed, 'image.size_pretty');
  });

  test('refuses empty and malformed paths, naming embed', () => {
    for (const value of ['', 'screenshot..url', '.url', 'url.', 'a b', '__proto__.x', 'image.constructor']) {
      rejects(`embed=${encodeURIComponent(value)}`, 'EINVALQUERY', 'embed');
    }
  });
});

describe('filter', () => {
  test('is a comma list of dot paths, trimmed, deduplicated, stray commas forgiven', () => {
    assert.deepEqual(parse('filter=title,image.url,+logo+,title,').filter, ['title', 'image.url', 'logo']);
    assert.deepEqual(parse('filter.0=title&filter.1=image').filter, ['title', 'image']);
    assert.equal(parse('').filter, undefined);
  });

  test('refuses empty and malformed lists, naming filter', () => {
    rejects('filter=', 'EINVALQUERY', 'filter');
    rejects('filter=,,', 'EINVALQUERY', 'filter');
    rejects('filter=title,image..url', 'EINVALQUERY', 'filter');
    rejects('filter=title,__proto__', 'EINVALQUERY', 'filter');
  });
});
