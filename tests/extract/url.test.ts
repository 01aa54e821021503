import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveUrl } from '../../lib/extract/url.ts';
import { head, PAGE_URL, values } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

describe('resolveUrl', () => {
  test('relative, root-relative and protocol-relative addresses', () => {
    assert.equal(resolveUrl('img/a.png', PAGE_URL), 'https://news.example.com/2024/03/img/a.png');
    assert.equal(resolveUrl('/a.png', PAGE_URL), 'https://news.example.com/a.png');
    assert.equal(resolveUrl('//cdn.example.net/a.png', PAGE_URL), 'https://cdn.example.net/a.png');
    assert.equal(resolveUrl('  https://x.example/a b ', PAGE_URL), 'https://x.example/a%20b');
  });

  test('absolute addresses (parsed without the base) come out as with it', () => {
    for (const raw of ['HTTPS://X.Example:443/a/../b?q#f', 'http://x.example', 'https://[::1]:8080/', 'http:x', 'http:/x', 'https:\\\\x.example\\y']) {
      assert.equal(resolveUrl(raw, PAGE_URL), new URL(raw, PAGE_URL).href, raw);
    }
    assert.equal(resolveUrl('HTTPS://X.Example:443/a/../b?q#f', PAGE_URL), 'https://x.example/b?q#f');
    assert.equal(resolveUrl('https:\\\\x.example\\y', PAGE_URL), 'https://x.example/y');
    assert.equal(resolveUrl('http://', PAGE_URL), undefined);
    assert.equal(resolveUrl('https://@/', PAGE_URL), undefined);
  });

  test('only http(s) is kept', () => {
    assert.equal(resolveUrl('javascript:alert(1)', PAGE_URL), undefined);
    assert.equal(resolveUrl('data:image/png;base64,AAAA', PAGE_URL), undefined);
    assert.equal(resolveUrl('mailto:a@b.c', PAGE_URL), undefined);
    assert.equal(resolveUrl('', PAGE_URL), undefined);
    assert.equal(resolveUrl('http://[bad', PAGE_URL), undefined);
  });
});

describe('url', () => {
  test('og:url, then canonical, then the page URL', () => {
    const html = head('<link rel="canonical" href="/canonical">',
      '<meta property="og:url" content="https://news.example.com/og">');
    assert.equal(values(html).url, 'https://news.example.com/og');
    assert.equal(values(head('<link rel="canonical" href="/canonical">')).url, 'https://news.example.com/canonical');
    assert.equal(
      values(head('<link rel="alternate" hreflang="x-default" href="/default">')).url,
      'https://news.example.com/default',
    );
    assert.equal(values('<p>nothing</p>').url, PAGE_URL);
  });

  test('relative addresses resolve against <base href>, itself resolved against the page URL', () => {
    const html = '<html><head><base href="/base/dir/"><link rel="canonical" href="page"></head></html>';
    assert.equal(values(html).url, 'https://news.example.com/base/dir/page');
    assert.equal(
      values('<head><base href="https://other.example/x/"><link rel="canonical" href="y"></head>').url,
      'https://other.example/x/y',
    );
  });

  test('an unusable og:url falls through to the canonical link', () => {
    const html = head('<meta property="og:url" content="javascript:void(0)">',
      '<link rel="canonical" href="https://news.example.com/c">');
    assert.equal(values(html).url, 'https://news.example.com/c');
  });
});
