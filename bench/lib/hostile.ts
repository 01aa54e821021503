/** Hostile and ordinary pages for bench/parse.ts and tests/app/hostile-html.test.ts. */

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
