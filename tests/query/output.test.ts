import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

describe('embed', () => {
  test('is a dot path into data', () => {
    assert.deepEqual(parse('embed=screenshot.url').embed, { path: 'screenshot.url', proxy: false });
    assert.equal(parse('embed=+title+').embed?.path, 'title');
    assert.equal(parse('embed=image.size_pretty').embed?.path, 'image.size_pretty');
    assert.equal(parse('').embed, undefined);
  });

  test('refuses empty and malformed paths, naming embed', () => {
    for (const value of ['', 'screenshot..url', '.url', 'url.', 'a b', '__proto__.x', 'image.constructor']) {
      rejects(`embed=${encodeURIComponent(value)}`, 'EINVALQUERY', 'embed');
      rejects(`embed=${encodeURIComponent(value)}&embed.proxy`, 'EINVALQUERY', 'embed');
    }
  });

  test('embed.proxy is a boolean beside the path: bare or true turns it on, false is the default', () => {
    for (const query of ['embed=image.url&embed.proxy', 'embed=image.url&embed.proxy=true', 'embed.proxy=TRUE&embed=image.url', 'embed[proxy]=&embed=image.url']) {
      assert.deepEqual(parse(query).embed, { path: 'image.url', proxy: true }, query);
    }
    assert.deepEqual(parse('embed=image.url&embed.proxy=false').embed, { path: 'image.url', proxy: false });
  });

  test('embed.proxy refuses other values, needs a path, and embed takes no other sub-key', () => {
    rejects('embed=image.url&embed.proxy=yes', 'EINVALQUERY', 'embed.proxy');
    rejects('embed=image.url&embed.proxy.deep=true', 'EINVALQUERY', 'embed.proxy');
    rejects('embed=image.url&embed.proxy=true&embed.proxy=false', 'EINVALQUERY', 'embed.proxy');
    const alone = rejects('embed.proxy=true', 'EINVALQUERY', 'embed');
    assert.match(alone.message, /embed\.proxy` needs it beside/);
    rejects('embed=image.url&embed.prxy=true', 'EINVALQUERY', 'embed.prxy');
    rejects('stream=image.url&stream.cors=true', 'EINVALQUERY', 'stream.cors');
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
