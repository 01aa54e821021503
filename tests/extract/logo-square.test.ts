/** `meta.logo.square`: the largest logo the page declares square comes first (Microlink's `logo: { square }`). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMetadata } from '../../lib/extract/index.ts';
import { squareSide } from '../../lib/extract/fields/logo.ts';
import { head, ldJson, PAGE_URL } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const square = (html: string) => extractMetadata({ html, url: PAGE_URL }, ['logo'], { squareLogo: true });
const url = (path: string) => `https://news.example.com${path}`;

describe('logo, square', () => {
  test('a square side comes from `sizes`, else the file name; unsized touch icons are 180', () => {
    assert.equal(squareSide({ rel: 'icon', sizes: '16x16 192x192', href: '/a.png' }), 192);
    assert.equal(squareSide({ rel: 'icon', sizes: '300x100', href: '/a-512x512.png' }), 0);
    assert.equal(squareSide({ rel: 'icon', sizes: '', href: '/icon-512x512.png' }), 512);
    assert.equal(squareSide({ rel: 'apple-touch-icon', sizes: '', href: '/touch.png' }), 180);
    assert.equal(squareSide({ rel: 'icon', sizes: 'any', href: '/icon.svg' }), 0);
  });

  test('the largest square icon wins over a wide logo the default prefers', () => {
    const html = head(
      '<meta property="og:logo" content="/wordmark.png">',
      '<link rel="icon" sizes="32x32" href="/f32.png">',
      '<link rel="icon" sizes="512x512" href="/f512.png">',
      '<link rel="apple-touch-icon" href="/touch.png">',
      '<link rel="icon" sizes="600x60" href="/wide.png">',
    );
    assert.equal(extractMetadata({ html, url: PAGE_URL }, ['logo']).values.logo, url('/wordmark.png'));
    const { values, candidates } = square(html);
    assert.equal(values.logo, url('/f512.png'));
    assert.deepEqual(candidates.logo.slice(0, 3), [url('/f512.png'), url('/touch.png'), url('/f32.png')]);
    assert.ok(candidates.logo.includes(url('/wordmark.png')), 'the usual candidates follow');
  });

  test('square JSON-LD logos and Windows tiles count with their declared sides', () => {
    const html = head(
      ldJson({ '@type': 'Organization', logo: { '@type': 'ImageObject', url: '/org.png', width: 400, height: 400 } }),
      '<meta name="msapplication-square150x150logo" content="/tile.png">',
      '<link rel="icon" sizes="192x192" href="/f192.png">',
    );
    assert.deepEqual(square(html).candidates.logo.slice(0, 3), [url('/org.png'), url('/f192.png'), url('/tile.png')]);
  });

  test('with nothing declared square, the usual order stands', () => {
    const html = head('<meta property="og:logo" content="/wordmark.png">');
    assert.equal(square(html).values.logo, url('/wordmark.png'));
  });
});
