/**
 * Every function that runs regular expressions over page content, target headers or probed bytes, fed input
 * built to make a backtracking regex blow up (repeated openings, long runs of what a quantifier loops on), must
 * finish fast. The bound is generous (a loaded machine must not make the test flaky); a quadratic or exponential
 * regex on these inputs takes seconds to hours.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isClientShell } from '../../lib/extract/client-shell.ts';
import { collectFacts } from '../../lib/extract/collect.ts';
import { parseDate } from '../../lib/extract/date.ts';
import { extractMetadata } from '../../lib/extract/index.ts';
import { parseJsonLd, typesOf } from '../../lib/extract/jsonld.ts';
import { normaliseText, textKey } from '../../lib/extract/text.ts';
import { looksLikeUrl } from '../../lib/extract/url.ts';
import { iconSize } from '../../lib/extract/fields/logo.ts';
import { decodeHtml } from '../../lib/fetch/charset.ts';
import { startsLikeHtml } from '../../lib/fetch/document.ts';
import { svgSize } from '../../lib/media/svg.ts';
import { sniff } from '../../lib/media/sniff.ts';
import { PAGE_URL } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const BOUND_MS = 200;
const N = 320_000;
/** `unit` repeated up to about N characters. */
const run = (unit: string, length = N): string => unit.repeat(Math.ceil(length / unit.length));

/** Whole pages are parsed too (linear, ~30 ms for 320 kB, more on a loaded machine); a blow-up is minutes. */
const PAGE_BOUND_MS = 1000;

/** The best of up to three runs: a busy machine or a GC pause slows one run; a super-linear regex slows them all. */
function fast(name: string, work: () => unknown, bound = BOUND_MS): void {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best >= bound; attempt++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  assert.ok(best < bound, `${name}: ${best.toFixed(0)} ms`);
}

test('client-shell check (the page parsed, then judged)', () => {
  for (const body of [
    run('<script '), run('<script>'), run('<style '), run('<!--'), run('<body'), run('<'), run(' '),
    run('<svg></svg>'), run('<b> '), `<script>${run('</script ')}`, `<script>${run(' ')}`,
  ]) {
    const shell = (html: string) => () => isClientShell(collectFacts(html, PAGE_URL), null);
    fast(`isClientShell ${body.slice(0, 12)}`, shell(`<script src=a.js></script>${body}`), PAGE_BOUND_MS);
    fast(`isClientShell <body> ${body.slice(0, 12)}`, shell(`<body><script></script>${body}`), PAGE_BOUND_MS);
  }
});

test('what a fetched body starts with', () => {
  for (const start of [run('<!---->', 2048), run('<!-- ', 2048), run(' ', 2048), `${run('<!---->', 2040)}<!--`]) {
    fast(`startsLikeHtml ${start.slice(0, 12)}`, () => startsLikeHtml(start));
  }
});

test('charset prescan', () => {
  for (const head of [run('<meta '), run('<!--'), run('<meta charset='), `<meta ${run('a=')}`, `<meta content="${run('charset= ')}`]) {
    fast(`decodeHtml ${head.slice(0, 12)}`, () => decodeHtml(Buffer.from(head, 'latin1'), undefined));
    fast(`decodeHtml header ${head.slice(0, 12)}`, () => decodeHtml(Buffer.from(head), `text/html; ${run('charset= ', 8000)}`));
  }
});

test('SVG size and content sniffing of probed bytes (64 kB)', () => {
  const size = 65_536;
  for (const text of [
    run('<!--', size), run('<!DOCTYPE [', size), run('<svg ', size), run('<svg "', size), run('<!DOCTYPE', size),
    `<svg width="${run('1', size)}!" height="1">`, `<svg width="1${run(' ', size)}!" height="1">`,
    `<svg viewBox="${run('1 ', size)}">`, `<svg ${run(' width= ', size)}>`,
  ]) {
    fast(`svgSize ${text.slice(0, 14)}`, () => svgSize(Buffer.from(text)));
    fast(`sniff ${text.slice(0, 14)}`, () => sniff(Buffer.from(text)));
  }
});

test('field values: text, dates, URLs, icon sizes, JSON-LD', () => {
  for (const value of [run('&a'), run('&#1'), run(' '), run('\u200b '), run('a.'), run('- ')]) {
    fast(`normaliseText ${value.slice(0, 8)}`, () => textKey(normaliseText(value)));
  }
  for (const value of [
    run(','), run('T,'), `jan 1, 2020${run('T,')}x`, run('jan '), run('1 '), run('1/1/'), `2020-01-01${run(' at ')}`,
    run('1'), `${run('1')}.${run('1')}x`, run('gmt+'), run('january '), `march 3rd, 2021 ${run('@ ')}`,
  ]) {
    fast(`parseDate ${value.slice(0, 12)}`, () => parseDate(value));
  }
  for (const value of [`www.${run('a.')} `, `www.${run('a')}`, `//${run('a')} `, run('www.')]) {
    fast(`looksLikeUrl ${value.slice(0, 8)}`, () => looksLikeUrl(value));
  }
  for (const sizes of [run('1 '), run('1x'), run('1111 x '), `1${run(' ')}`]) {
    fast(`iconSize ${sizes.slice(0, 8)}`, () => iconSize({ sizes, href: sizes }));
  }
  for (const block of [`{"a":1${run(', ')}`, `<!--${run(' ')}`, `${run('//')}`, `${run(']]>')} x`, `[${run('-->')}`]) {
    fast(`parseJsonLd ${block.slice(0, 8)}`, () => parseJsonLd([block]));
  }
  fast('typesOf', () => typesOf({ '@type': [run('a/'), `${run('a')}\n`] }));
});

test('whole-page extraction of hostile markup and attribute values', () => {
  const meta = (name: string, value: string) => `<meta name="${name}" content="${value}">`;
  const pages = [
    `<title>${run('- ')}x</title>`,
    `<title>${run('| ')}\u2028x</title>`,
    meta('author', run('by ')), meta('author', `posted ${run(' ')}`), meta('date', run('jan 1 ')),
    meta('og:image', `www.${run('a.')} `), `<link rel="icon" sizes="${run('1 x ')}" href="/a.png">`,
    `<div class="${run('post ')}">x</div>`, `<div class="${run('-title ')}">x</div>`,
    `<a class="logo ${run(' ')}" href="${run('/author/')}">x</a>`,
    `<script type="application/ld+json">{"@type":"${run('a:')}",${run(', ')}</script>`,
    run('<p>&amp;'), run('<time datetime="2020">'), run('<meta property="og:image" content="/a.png">'),
    run('<link rel="icon" href="/a.png">'), run('<img src="/a.png">'), run('<source src="/a.mp4">'),
    // Lines a byline's label or a date starts (lib/extract/byline-label.ts), each read by the author and date rules.
    run('<br>von Anna Berg '), run('<br>Autor: '), run('<br>Bonn, 11.10.2021 '), `<main><p>${run('Samstag ')}5. Mai 2010</p></main>`,
  ];
  for (const html of pages) {
    fast(`extractMetadata ${html.slice(0, 30)}`, () => extractMetadata({ html, url: PAGE_URL }), PAGE_BOUND_MS);
  }
  fast('collectFacts of attributes', () => collectFacts(`<div ${run('a ')}>`, PAGE_URL), PAGE_BOUND_MS);
});
