/** Hostile and ordinary pages for bench/parse.ts and tests/app/hostile-html.test.ts. */
import iconv from 'iconv-lite';

/** `depth` nested `<div>`, closed again: 11 bytes a level (300 000 levels are 3.3 MB). */
export const nestedDivs = (depth: number): string =>
  `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}</body></html>`;

const ARTICLE = `<article class="post"><h2 class="entry-title"><a href="/post">A headline of ordinary length</a></h2>
<p class="byline">By <a class="author" href="/author/someone">Some One</a> on <time datetime="2024-03-05">5 March</time></p>
<p>Ordinary paragraph text with <a href="/link">a link</a>, <em>emphasis</em> and <strong>weight</strong>, long enough to
look like prose &amp; entities &#8212; the kind of markup a news page repeats down its length.</p>
<img src="/img.jpg" alt="picture" width="640" height="360"><ul><li>one</li><li>two</li><li>three</li></ul></article>
`;

/** Ordinary news-page markup, about `bytes` long. */
export function ordinaryPage(bytes: number): string {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ordinary</title>
<meta property="og:title" content="Ordinary page"><meta property="og:image" content="/og.jpg"></head><body><main>`;
  return `${head}${ARTICLE.repeat(Math.max(1, Math.round(bytes / ARTICLE.length)))}</main></body></html>`;
}

/** `count` sibling `<p>` in one body, then a `<span>`: the shape that makes `:has(~ …)` and `:nth-last-child()` quadratic. */
export const siblings = (count: number): string =>
  `<!doctype html><html><head><title>Siblings</title></head><body>${'<p>x</p>'.repeat(count)}<span>end</span></body></html>`;

/**
 * `depth` nested `<div>`, each level with a paragraph, about `bytes` in all: every subtree holds all those below it, so
 * the text or Markdown of each of the first few hundred `div` is most of the page (the DOM folds levels past 256).
 */
export function nestedText(bytes: number, depth = 1000): string {
  const paragraph = `<p>${'Nested text of an ordinary length, words a reader would read. '.repeat(Math.max(1, Math.round(bytes / depth / 64)))}</p>`;
  return `<!doctype html><html><head><title>Nested</title></head><body>${`<div>${paragraph}`.repeat(depth)}${'</div>'.repeat(depth)}</body></html>`;
}

/** JSON arrays nested `depth` deep, as a page's JSON-LD and as the text of a `<pre>` a rule reads with `attr=json`. */
export const deepJson = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Unclosed `<link href="` repeated to about `bytes`: each technology fingerprint scans up to 250 characters twice from each. */
export const unclosedLinks = (bytes: number): string =>
  `<!doctype html><html><head><title>Links</title></head><body>${'<link href="'.repeat(Math.round(bytes / 12))}</body></html>`;

/** One element with `count` attributes. */
export const manyAttributes = (count: number): string =>
  `<!doctype html><html><head><title>Attributes</title></head><body><div ${Array.from({ length: count }, (_, i) => `a${i}="v"`).join(' ')}>x</div></body></html>`;

/** A page of `bytes` of Russian prose in windows-1251 that declares no charset: its encoding is guessed by chardet. */
export function legacyPage(bytes: number): Buffer {
  const prose = 'Вчера вечером мы ходили в кино на новый российский фильм. Он нам очень понравился, хотя был довольно длинным. ';
  const text = `<!doctype html><html><head><title>Новости</title></head><body><p>${prose.repeat(Math.ceil(bytes / prose.length))}</p></body></html>`;
  return iconv.encode(text, 'windows-1251').subarray(0, bytes);
}
