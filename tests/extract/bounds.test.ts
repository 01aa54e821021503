/**
 * What the field rules are given is bounded when the facts are collected (lib/extract/facts.ts, collect.ts), so that
 * a page of hostile metadata costs them milliseconds: each bound, and that a value within it is still read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectFacts } from '../../lib/extract/collect.ts';
import { MAX_VALUE } from '../../lib/extract/facts.ts';
import { extractMetadata } from '../../lib/extract/index.ts';

const URL = 'https://example.com/post';
const extract = (html: string) => extractMetadata({ html, url: URL });

test('an attribute value longer than MAX_VALUE is read as absent; one within it is read', () => {
  const within = 'd'.repeat(MAX_VALUE);
  const page = (description: string) => `<title>T</title><meta name="description" content="${description}">`;
  assert.equal(extract(page(within)).values.description, within);
  assert.equal(extract(page(`${within}d`)).values.description, null);
  const image = (src: string) => `<title>T</title><meta property="og:image" content="${src}">`;
  const long = `https://cdn.example.com/${'a'.repeat(MAX_VALUE)}.png`;
  assert.equal(extract(image(long)).values.image, null);
  assert.equal(extract(image('https://cdn.example.com/a.png')).values.image, 'https://cdn.example.com/a.png');
});

test('a JSON-LD string longer than MAX_VALUE is read as absent', () => {
  const ld = (headline: string) =>
    `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', headline })}</script><h1>The visible headline</h1>`;
  assert.equal(extract(ld('The declared headline')).values.title, 'The declared headline');
  assert.equal(extract(ld('h'.repeat(MAX_VALUE + 1))).values.title, 'The visible headline');
});

test('one meta name keeps its first 16 values, links and microdata their first 200', () => {
  const metas = Array.from({ length: 30 }, (_, i) => `<meta property="og:image" content="https://cdn.example.com/${i}.png">`).join('');
  const links = Array.from({ length: 300 }, (_, i) => `<link rel="alternate" hreflang="x${i}" href="/${i}">`).join('');
  const items = Array.from({ length: 300 }, (_, i) => `<meta itemprop="keywords" content="k${i}">`).join('');
  const facts = collectFacts(`<head>${metas}${links}</head><body>${items}</body>`, URL);
  assert.deepEqual(facts.meta.get('og:image'), Array.from({ length: 16 }, (_, i) => `https://cdn.example.com/${i}.png`));
  assert.equal(facts.links.length, 200);
  assert.equal(facts.links[199]?.href, '/199');
  assert.equal(facts.microdata.length, 200);
});

test('a captured text is cut at 600 characters, however long the text node', () => {
  assert.equal(collectFacts(`<title>${'a'.repeat(100_000)}</title>`, URL).title, 'a'.repeat(600));
});

test('JSON-LD is kept up to 1 000 000 characters in all; a block that would pass that is left out whole', () => {
  const block = (text: string) => `<script type="application/ld+json">${text}</script>`;
  const large = JSON.stringify({ '@type': 'WebPage', text: 'x'.repeat(999_900) });
  const small = JSON.stringify({ '@type': 'NewsArticle', headline: 'Small' });
  assert.deepEqual(collectFacts(block(large) + block(small), URL).jsonldBlocks, [large, small]);
  const over = JSON.stringify({ '@type': 'WebPage', text: 'x'.repeat(1_000_000) });
  assert.deepEqual(collectFacts(block(over) + block(small), URL).jsonldBlocks, [small]);
});

test('a byline longer than 1 024 characters is no author, however its spaces collapse', () => {
  const page = (name: string) => `<title>T</title><meta name="author" content="${name}">`;
  assert.equal(extract(page(`Jane${' '.repeat(900)}Doe`)).values.author, 'Jane Doe');
  assert.equal(extract(page(`Jane${' '.repeat(1100)}Doe`)).values.author, null);
});

test('a date is looked for in the first 1 000 characters of a value only', () => {
  const page = (prefix: string) => `<title>T</title><meta property="article:published_time" content="${prefix}2020-05-05">`;
  assert.equal(extract(page('Posted ')).values.date, '2020-05-05T12:00:00.000Z');
  assert.equal(extract(page('x '.repeat(600))).values.date, null);
});
