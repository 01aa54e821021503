/**
 * What the field rules are given is bounded when the facts are collected (lib/extract/facts.ts, collect.ts), so that
 * a page of hostile metadata costs them milliseconds: each bound, and that a value within it is still read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectFacts } from '../../lib/extract/collect.ts';
import { MAX_VALUE } from '../../lib/extract/facts.ts';
import { extractMetadata } from '../../lib/extract/index.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

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

test('one meta name keeps its first 16 values; one kind of link, or one property in one scope, its first 60–200', () => {
  const metas = Array.from({ length: 30 }, (_, i) => `<meta property="og:image" content="https://cdn.example.com/${i}.png">`).join('');
  const alternates = Array.from({ length: 300 }, (_, i) => `<link rel="alternate" hreflang="x${i}" href="/${i}">`).join('');
  // After hundreds of hreflang alternates: the x-default one, the canonical link, the oEmbed endpoint are still read.
  const later = '<link rel="alternate" hreflang="x-default" href="/default"><link rel="canonical" href="/canonical">' +
    '<link rel="alternate" type="application/json+oembed" href="/oembed.json">';
  const names = Array.from({ length: 300 }, (_, i) => `<span itemprop="name">Product ${i}</span>`).join('');
  const author = '<div itemprop="author" itemscope><span itemprop="name">Jane Doe</span></div>';
  const facts = collectFacts(`<head>${metas}${alternates}${later}</head><body>${names}${author}</body>`, URL);
  assert.deepEqual(facts.meta.get('og:image'), Array.from({ length: 16 }, (_, i) => `https://cdn.example.com/${i}.png`));
  const hrefs = facts.links.map((link) => link.href);
  assert.equal(hrefs.filter((href) => /^\/\d+$/.test(href)).length, 200);
  for (const href of ['/default', '/canonical', '/oembed.json']) assert.ok(hrefs.includes(href), href);
  assert.equal(facts.microdata.filter((item) => item.scope === '' && item.prop === 'name').length, 60);
  assert.equal(facts.microdata.filter((item) => item.scope === 'author' && item.prop === 'name').length, 1);
});

test('a captured text is cut at 600 characters, however long the text node or the line breaks in it', () => {
  assert.equal(collectFacts(`<title>${'a'.repeat(100_000)}</title>`, URL).title, 'a'.repeat(600));
  // Each <br> in a byline adds a space: those stop at the cut too.
  const facts = collectFacts(`<div class="byline">By Jane${'<br>'.repeat(10_000)}</div>`, URL);
  assert.equal(facts.texts.byline[0]?.text.length, 600);
  // Never inside a surrogate pair: the cut falls before one that straddles it.
  assert.equal(collectFacts(`<title>a${'😀'.repeat(400)}</title>`, URL).title, `a${'😀'.repeat(299)}`);
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
