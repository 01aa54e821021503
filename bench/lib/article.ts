/**
 * The pages the screenshot benchmarks capture: an article of cards with text and images under one style sheet,
 * `/article` (4 cards, about one viewport) and `/long` (16 cards, 7 296 CSS px: under Glance's 8 192 CSS px
 * full-page cap, so Glance and the bare script capture the same pixels).
 */
import { html, type Route } from '../../tests/helpers/server.ts';
import * as make from '../../tests/ping/fixtures.ts';
import { serve } from '../../tests/ping/helpers.ts';

const STYLE = `body { font: 16px/1.5 sans-serif; margin: 0; color: #223; }
header { background: linear-gradient(90deg, #334, #557); color: white; padding: 24px 48px; }
main { display: grid; grid-template-columns: 2fr 1fr; gap: 32px; padding: 32px 48px; }
.card { border-radius: 12px; box-shadow: 0 4px 16px rgba(0,0,0,.15); padding: 16px; margin-bottom: 24px; }
img { max-width: 100%; display: block; border-radius: 8px; }`;

const article = (sections: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Benchmark page</title><link rel="stylesheet" href="/style.css"></head><body>
<header><h1>A page to capture</h1><nav>Home · Articles · About</nav></header>
<main><section>${Array.from({ length: sections }, (_, i) => `<div class="card"><h2>Section ${i + 1}</h2>
<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. '.repeat(6)}</p>
${i % 2 === 0 ? `<img src="/photo-${i % 4}.png" alt="" width="600" height="300">` : ''}</div>`).join('')}</section>
<aside><div class="card"><h3>Aside</h3><p>${'Related reading and links. '.repeat(12)}</p></div></aside></main></body></html>`;

export function articleRoutes(): Record<string, Route> {
  const routes: Record<string, Route> = { '/style.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end(STYLE) };
  for (let i = 0; i < 4; i++) routes[`/photo-${i}.png`] = serve(make.png(600 + i, 300), { contentType: 'image/png' });
  routes['/article'] = html(article(4));
  routes['/long'] = html(article(16));
  return routes;
}
