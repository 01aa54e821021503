/** The corpus scoring is shared with the benchmark, where it judges other extractors: it must be fair. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreField, scorePage, summarise, type CorpusPage } from '../helpers/corpus.ts';

const meta = { url: 'https://site.example/a/page' };

describe('scoreField', () => {
  test('strings: whitespace collapsed, entities decoded on both sides, quotes and ellipses folded', () => {
    assert.equal(scoreField('title', ' Fish  &amp; \n Chips ', { title: 'Fish & Chips' }, meta), true);
    assert.equal(scoreField('title', 'Fish & Chips', { title: 'Fish &amp;amp; Chips' }, meta), true);
    assert.equal(scoreField('title', "Don't", { title: 'Don\u2019t' }, meta), true);
    assert.equal(scoreField('description', 'And then...', { description: 'And then\u2026' }, meta), true);
    assert.equal(scoreField('title', 'Fish', { title: 'Chips' }, meta), false);
  });

  test('null expected agrees only with nothing found', () => {
    assert.equal(scoreField('author', null, { author: null }, meta), true);
    assert.equal(scoreField('author', '', { author: null }, meta), true);
    assert.equal(scoreField('author', 'Someone', { author: null }, meta), false);
    assert.equal(scoreField('author', null, { author: 'Someone' }, meta), false);
  });

  test('URLs compare after resolving against the page URL', () => {
    assert.equal(scoreField('logo', 'https://site.example/favicon.ico', { logo: '/favicon.ico' }, meta), true);
    assert.equal(scoreField('image', 'https://cdn.example/i.png', { image: '//cdn.example/i.png' }, meta), true);
    assert.equal(scoreField('image', 'https://site.example/a/i.png', { image: 'i.png' }, meta), true);
    assert.equal(scoreField('image', 'https://site.example/i.png', { image: 'i.png' }, meta), false);
  });

  test('dates compare as instants; a value without a zone is UTC', () => {
    assert.equal(scoreField('date', '2020-06-08T10:00:00.000Z', { date: '2020-06-08T03:00-0700' }, meta), true);
    assert.equal(scoreField('date', '2020-06-11T14:26:01.674Z', { date: '2020-06-11T14:26:01.674' }, meta), true);
    assert.equal(scoreField('date', '2016-07-07T00:39:49.000Z', { date: '2016-07-07 00:39:49 Etc/GMT' }, meta), true);
    assert.equal(scoreField('date', '2016-08-24T00:00:00.000Z', { date: 'Aug 24, 2016' }, meta), true);
    assert.equal(scoreField('date', '2016-08-24T12:00:00.000Z', { date: 'Aug 24, 2016' }, meta), false);
  });

  test('lang compares by primary subtag', () => {
    assert.equal(scoreField('lang', 'en', { lang: 'en_US' }, meta), true);
    assert.equal(scoreField('lang', 'zh', { lang: 'zh-cmn-Hans' }, meta), true);
    assert.equal(scoreField('lang', 'en', { lang: 'es' }, meta), false);
  });

  test('checks: oneOf alternatives and the other acceptance tests', () => {
    const checks = {
      logo: { oneOf: ['https://site.example/a.png', '/b.png'] },
      date: { type: 'string' },
      description: { includes: 'Rank' },
      image: { startsWith: 'https://cdn.example/' },
      video: { nullOrIncludes: 'videos.example' },
      publisher: { lowercaseEquals: 'hola! us' },
      author: { anyHttpUrl: true },
    };
    const m = { ...meta, checks };
    assert.equal(scoreField('logo', 'https://site.example/b.png', { logo: 'x' }, m), true);
    assert.equal(scoreField('logo', 'https://site.example/c.png', { logo: 'x' }, m), false);
    assert.equal(scoreField('date', '2001-01-01T00:00:00.000Z', { date: '2020-01-01' }, m), true);
    assert.equal(scoreField('date', null, { date: '2020-01-01' }, m), false);
    assert.equal(scoreField('description', 'HackerRank jobs', { description: 'x' }, m), true);
    assert.equal(scoreField('image', 'https://cdn.example/p.jpg', { image: 'x' }, m), true);
    assert.equal(scoreField('video', null, { video: 'x' }, m), true);
    assert.equal(scoreField('video', 'https://other.example/v.mp4', { video: 'x' }, m), false);
    assert.equal(scoreField('publisher', 'HOLA! US', { publisher: 'x' }, m), true);
    assert.equal(scoreField('author', '/relative', { author: 'x' }, m), true);
  });

  test('caveats and fields the corpus does not assert are not scored', () => {
    assert.equal(scoreField('logo', 'anything', { logo: 'x' }, { ...meta, caveats: { logo: 'network' } }), null);
    assert.equal(scoreField('audio', 'anything', {}, meta), null);
  });
});

describe('summarise', () => {
  test('per-field and overall agreement over scored fields only', () => {
    const page = { peer: 'p', name: 'n', url: meta.url, html: '', meta: { ...meta, name: 'n', peer: 'p' } };
    const a = scorePage({ ...page, expected: { title: 'A', author: null } } as CorpusPage, { title: 'A', author: 'X' });
    const b = scorePage({ ...page, expected: { title: 'B' } } as CorpusPage, { title: 'B' });
    const summary = summarise([a, b]);
    assert.deepEqual(summary.fields.title, { agreed: 2, scored: 2, ratio: 1 });
    assert.deepEqual(summary.fields.author, { agreed: 0, scored: 1, ratio: 0 });
    assert.deepEqual(summary.fields.logo, { agreed: 0, scored: 0, ratio: 1 });
    assert.deepEqual(summary.overall, { agreed: 2, scored: 3, ratio: 2 / 3 });
  });
});
