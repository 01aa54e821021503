import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMetadata } from '../../lib/extract/index.ts';
import { head, ldJson, PAGE_URL, values } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

describe('image', () => {
  test('og:image:secure_url, og:image, twitter:image, resolved against the page', () => {
    const html = head(
      '<meta name="twitter:image" content="/tw.jpg">',
      '<meta property="og:image" content="/og.jpg">',
      '<meta property="og:image:secure_url" content="https://cdn.example.com/secure.jpg">',
    );
    assert.equal(values(html).image, 'https://cdn.example.com/secure.jpg');
    assert.equal(
      values(head('<meta name="twitter:image:src" content="tw.jpg">')).image,
      'https://news.example.com/2024/03/tw.jpg',
    );
  });

  test('every distinct candidate is listed, best first', () => {
    const html = head(
      '<meta property="og:image" content="/a.jpg">',
      '<meta name="twitter:image" content="https://news.example.com/a.jpg">',
      '<meta name="twitter:image" content="/b.jpg">',
    );
    assert.deepEqual(extractMetadata({ html, url: PAGE_URL }).candidates.image, [
      'https://news.example.com/a.jpg',
      'https://news.example.com/b.jpg',
    ]);
  });

  test('JSON-LD image as a string, an ImageObject and an array', () => {
    assert.equal(
      values(head(ldJson({ '@type': 'Article', image: '/ld.jpg' }))).image,
      'https://news.example.com/ld.jpg',
    );
    assert.equal(
      values(head(ldJson({ '@type': 'Article', image: { '@type': 'ImageObject', url: '/obj.jpg' } }))).image,
      'https://news.example.com/obj.jpg',
    );
    assert.equal(
      values(head(ldJson({ '@type': 'Article', image: [{ contentUrl: '/first.jpg' }, '/second.jpg'] }))).image,
      'https://news.example.com/first.jpg',
    );
  });

  test('image_src link and microdata image', () => {
    assert.equal(values(head('<link rel="image_src" href="/src.jpg">')).image, 'https://news.example.com/src.jpg');
    assert.equal(
      values('<body><div itemscope><img itemprop="image" src="/micro.jpg"></div></body>').image,
      'https://news.example.com/micro.jpg',
    );
  });

  test('audio and video files are not images', () => {
    assert.equal(
      values(head('<meta property="og:image" content="/clip.mp4">',
        '<meta name="twitter:image" content="/t.png">')).image,
      'https://news.example.com/t.png',
    );
  });

  test('a video poster, then a content image, as last resorts; chrome images are skipped', () => {
    assert.equal(
      values('<body><video poster="/poster.jpg" src="/v.mp4"></video></body>').image,
      'https://news.example.com/poster.jpg',
    );
    const body = `<body><img src="/logo.png"><img src="/pixel.gif" width="1" height="1">
      <article><img src="/icons/share.svg"><img src="/photo.jpg" width="800"></article></body>`;
    assert.equal(values(body).image, 'https://news.example.com/photo.jpg');
  });

  test('nothing found is null', () => {
    assert.equal(values('<p>text</p>').image, null);
  });
});
