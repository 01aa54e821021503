import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMetadata } from '../../lib/extract/index.ts';
import { iconSize } from '../../lib/extract/fields/logo.ts';
import { head, ldJson, PAGE_URL } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const logo = (html: string) => extractMetadata({ html, url: PAGE_URL }, ['logo']);

describe('logo', () => {
  test('icon sizes come from `sizes` or the file name', () => {
    assert.equal(iconSize({ sizes: '16x16 32x32', href: '/f.ico' }), 32);
    assert.equal(iconSize({ sizes: '', href: '/icon-192x192.png' }), 192);
    assert.equal(iconSize({ sizes: 'any', href: '/icon.svg' }), 0);
  });

  test('the largest icon wins; unsized touch icons beat unsized favicons; mask icons come last', () => {
    const html = head(
      '<link rel="mask-icon" href="/mask.svg" sizes="512x512">',
      '<link rel="shortcut icon" href="/favicon.ico">',
      '<link rel="icon" type="image/png" sizes="32x32" href="/f32.png">',
      '<link rel="apple-touch-icon" sizes="180x180" href="/touch.png">',
    );
    const { values, candidates } = logo(html);
    assert.equal(values.logo, 'https://news.example.com/touch.png');
    assert.deepEqual(candidates.logo, [
      'https://news.example.com/touch.png',
      'https://news.example.com/f32.png',
      'https://news.example.com/favicon.ico',
      'https://news.example.com/mask.svg',
    ]);
    const unsized = head('<link rel="shortcut icon" href="/favicon.ico">',
      '<link rel="apple-touch-icon-precomposed" href="/apple.png">');
    assert.equal(logo(unsized).values.logo, 'https://news.example.com/apple.png');
  });

  test('a square JSON-LD logo beats icons; a wide wordmark comes after them', () => {
    const square = ldJson({
      '@type': 'NewsArticle',
      publisher: { '@type': 'Organization', name: 'N', logo: { '@type': 'ImageObject', url: '/sq.png', width: 512, height: 512 } },
    });
    const wide = ldJson({ '@type': 'Organization', logo: { url: '/wide.png', width: 600, height: 60 } });
    const icon = '<link rel="icon" href="/i.png">';
    assert.equal(logo(head(square, icon)).values.logo, 'https://news.example.com/sq.png');
    const both = logo(head(wide, icon));
    assert.equal(both.values.logo, 'https://news.example.com/i.png');
    assert.deepEqual(
      both.candidates.logo.slice(0, 2),
      ['https://news.example.com/i.png', 'https://news.example.com/wide.png'],
    );
    assert.equal(logo(head(wide)).values.logo, 'https://news.example.com/wide.png');
  });

  test('/favicon.ico of the origin is the last candidate, but only a guess: never the value', () => {
    const none = logo('<p>no icons</p>');
    assert.equal(none.values.logo, null);
    assert.deepEqual(none.candidates.logo, ['https://news.example.com/favicon.ico']);
    const declared = logo(head('<link rel="icon" href="https://cdn.example.com/i.png">'));
    assert.deepEqual(
      declared.candidates.logo,
      ['https://cdn.example.com/i.png', 'https://news.example.com/favicon.ico'],
    );
  });

  test('og:logo and microdata logo come first', () => {
    assert.equal(
      logo(head('<link rel="icon" href="/i.png">', '<meta property="og:logo" content="/og-logo.png">')).values.logo,
      'https://news.example.com/og-logo.png',
    );
    assert.equal(
      logo('<div itemscope itemtype="https://schema.org/Organization"><img itemprop="logo" src="/m.png"></div>').values.logo,
      'https://news.example.com/m.png',
    );
  });
});
