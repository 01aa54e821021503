/**
 * Every Microlink API parameter, one row each (issue 17, "a true drop-in"; issue 25, "no silent key"): the list is
 * Microlink's API reference (https://microlink.io/docs/api/parameters/…, REFERENCE below) and every key of
 * @microlink/mql's own type definitions (`MicrolinkApiOptions` and the types it names, read from the package by
 * tests/app/mql-options.ts, so a key a new mql adds fails the table until it has a row). A row either
 * `works` — a request with it is answered 200 and `check` sees what it did, through the local service (a real
 * socket, so stored assets are downloaded) — or is `refused` with EUNSUPPORTED naming it. No third verdict: a
 * parameter silently ignored fails its row.
 *
 * The cache key (lib/cache/key.ts) of every answer-changing row differs from the key of the same request without
 * the parameter (`context`); the cache-only rows (`ttl`, `staleTtl`, `force`) keep it.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { cacheKey } from '../../lib/cache/key.ts';
import { GlanceError } from '../../lib/errors.ts';
import { META_FIELDS } from '../../lib/data/fields.ts';
import { parseQuery } from '../../lib/query/index.ts';
import { mqlOptionKeys } from './mql-options.ts';
import { mp3, mp4, png } from '../ping/fixtures.ts';
import { pngOf } from '../palette/images.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>Table</title>
<meta name="description" content="A page for every parameter">
<meta name="generator" content="WordPress 6.4.2">
<meta property="og:image" content="/photo.png">
<link rel="icon" href="/icon.png" sizes="64x64">
<meta property="og:audio" content="/sound.mp3"><meta property="og:video" content="/clip.mp4">
<link rel="alternate" type="application/json+oembed" href="/oembed?url=page">
<style>#box{width:50px;height:50px;background:rgb(0,0,255)}</style>
<script>
document.documentElement.dataset.js = 'on';
setTimeout(() => { window.late = 'waited'; }, 400);
setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'appeared'; document.body.append(p); }, 300);
</script></head>
<body><h1>Heading</h1><div id="box"></div>
<button id="button" onclick="document.body.dataset.clicked = 'yes'">press</button>
<div role="dialog" aria-describedby="cookieconsent:desc" class="cc-window cc-banner cc-type-opt-in">
<span id="cookieconsent:desc">This website uses cookies.</span><a class="cc-btn cc-allow">Allow</a></div>
<div style="height:3000px"></div><p id="far">far below</p></body></html>`;

/** Three printed pages at least: the page range row needs more than one. */
const LONG = `<!doctype html><title>Long</title>${'<p style="height:1200px">page</p>'.repeat(4)}`;

/** A JavaScript expression as a custom data rule run in the rendered page; its value is `data.v`. */
const probe = (expression: string): string => `meta=false&data.v.evaluate=${encodeURIComponent(expression)}`;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

interface Tools {
  readonly site: TestServer;
  readonly service: Service;
  /** The image or PDF bytes at a stored asset's URL, with the headers they were served with. */
  download(url: string): Promise<{ body: Buffer; headers: Headers }>;
}

interface Row {
  /** As Microlink's reference names it. */
  readonly param: string;
  readonly verdict: 'works' | 'refused';
  /** The query string fragment that gives the parameter. */
  readonly with: string;
  /** The rest of the request, the same with and without the parameter. */
  readonly context?: string;
  /** Path on the test site. */
  readonly path?: string;
  /** What the parameter did, seen in the answer (works rows). */
  readonly check?: (answer: Answer, tools: Tools) => void | Promise<void>;
  /** Says only how to cache, never what to answer: its cache key is the context's. */
  readonly cacheOnly?: boolean;
  /** Other option keys (as mql or the reference spell them) this row shows working or refused. */
  readonly covers?: readonly string[];
  /**
   * Runs with no other row beside it: a Lighthouse report (seconds of both cores, one at a time, a queue of two),
   * or an answer that reads what the cache holds for the page.
   */
  readonly alone?: boolean;
}

const pixel = (image: PNG, x: number, y: number): number[] => [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];

/** The page boxes Chromium wrote, in points. */
function mediaBoxes(pdf: Buffer): Array<[number, number]> {
  return [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/** Whether a page's content streams set pure blue as the fill colour (`0 0 1 rg`): the #box background. */
function fillsBlue(pdf: Buffer): boolean {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/stream\r?\n/g)].some((match) => {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    try {
      return /(^|\s)0 0 1 rg\b/.test(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      return false;
    }
  });
}

const shotOf = async (answer: Answer, tools: Tools): Promise<PNG> =>
  PNG.sync.read((await tools.download(answer.body.data.screenshot.url)).body);

const pdfOf = async (answer: Answer, tools: Tools): Promise<Buffer> => (await tools.download(answer.body.data.pdf.url)).body;

const SMALL = 'viewport.width=400&viewport.height=300&viewport.deviceScaleFactor=1';
/** Pixels that compress differently at different effort. */
const GRADIENT = `styles=${encodeURIComponent('body{background:linear-gradient(red,blue)}')}`;

const ROWS: readonly Row[] = [
  { param: 'url', verdict: 'works', with: '', check: ({ body }) => assert.equal(body.data.title, 'Table') },
  {
    param: 'data',
    verdict: 'works',
    with: 'data.heading.selector=h1',
    covers: ['data.<field>', 'data.<field>.selector'],
    check: ({ body }) => assert.equal(body.data.heading, 'Heading'),
  },
  {
    param: 'data.<field> as JSON',
    verdict: 'works',
    with: `data.heading=${encodeURIComponent('[{"selector":"h2"},{"selector":"h1","attr":"text"}]')}`,
    check: ({ body }) => assert.equal(body.data.heading, 'Heading', 'the first fallback finds nothing, the second the heading'),
  },
  {
    param: 'data.<field>.selectorAll',
    verdict: 'works',
    with: 'data.ids.selectorAll=%5Bid%5D&data.ids.attr=id',
    check: ({ body }) => assert.deepEqual(body.data.ids, ['box', 'button', 'cookieconsent:desc', 'far']),
  },
  {
    param: 'data.<field>.attr',
    verdict: 'works',
    with: 'data.b.selector=button&data.b.attr=onclick',
    check: ({ body }) => assert.equal(body.data.b, "document.body.dataset.clicked = 'yes'"),
  },
  {
    param: 'data.<field>.type',
    verdict: 'works',
    with: 'data.u.selector=link%5Brel%3Dicon%5D&data.u.attr=href&data.u.type=url',
    check: ({ body }) => assert.match(body.data.u, /^http:\/\/127\.0\.0\.1:\d+\/icon\.png$/, 'made absolute, as a URL'),
  },
  {
    param: 'data.<field>.evaluate',
    verdict: 'works',
    with: 'data.e.evaluate=document.title.length',
    context: 'meta=false',
    check: ({ body }) => assert.equal(body.data.e, 5),
  },
  { param: 'meta', verdict: 'works', with: 'meta=false', check: ({ body }) => assert.equal(body.data.title, undefined) },
  ...META_FIELDS.map(
    (field): Row => ({
      param: `meta.${field}`,
      verdict: 'works',
      with: `meta.${field}=true`,
      check: ({ body }) => assert.deepEqual(Object.keys(body.data), [field]),
    }),
  ),
  {
    param: 'meta.logo.square',
    covers: ['meta.logo'],
    verdict: 'works',
    with: 'meta.logo.square=true',
    check: ({ body }) => assert.match(body.data.logo.url, /\/icon\.png$/),
  },
  { param: 'audio', verdict: 'works', with: 'audio', check: ({ body }) => assert.equal(body.data.audio.type, 'mp3') },
  { param: 'video', verdict: 'works', with: 'video', check: ({ body }) => assert.equal(body.data.video.type, 'mp4') },
  {
    param: 'iframe',
    verdict: 'works',
    with: 'iframe',
    check: ({ body }) => assert.equal(body.data.iframe.html, '<iframe src="https://player.example/embedded"></iframe>'),
  },
  {
    param: 'iframe.maxWidth',
    verdict: 'works',
    with: 'iframe.maxWidth=320',
    check: (_answer, { site }) => assert.ok(site.hits.some((hit) => hit.startsWith('/oembed') && hit.includes('maxwidth=320')), 'forwarded to the provider'),
  },
  {
    param: 'iframe.maxHeight',
    verdict: 'works',
    with: 'iframe.maxHeight=240',
    check: (_answer, { site }) => assert.ok(site.hits.some((hit) => hit.startsWith('/oembed') && hit.includes('maxheight=240')), 'forwarded to the provider'),
  },
  {
    param: 'insights',
    alone: true,
    verdict: 'works',
    // Technologies and a report (kept to one audit to keep the test short).
    with: 'insights&insights.lighthouse.onlyAudits=document-title',
    context: 'meta=false',
    check: ({ body }) => {
      assert.ok(body.data.insights.technologies.some((t: { name: string }) => t.name === 'WordPress'));
      assert.deepEqual(Object.keys(body.data.insights.lighthouse.audits), ['document-title']);
    },
  },
  {
    param: 'insights.technologies',
    verdict: 'works',
    with: 'insights.technologies=true&insights.lighthouse=false',
    check: ({ body }) => assert.ok(body.data.insights.technologies.some((t: { name: string }) => t.name === 'WordPress')),
  },
  {
    param: 'insights.lighthouse',
    alone: true,
    verdict: 'works',
    with: 'insights.lighthouse.onlyCategories=seo&insights.technologies=false',
    context: 'meta=false',
    check: ({ body }) => assert.equal(typeof body.data.insights.lighthouse.categories.seo.score, 'number'),
  },
  {
    param: 'palette',
    verdict: 'works',
    with: 'palette',
    check: ({ body }) => assert.equal(body.data.image.background_color, '#FF0000'),
  },
  {
    param: 'screenshot',
    verdict: 'works',
    with: 'screenshot',
    context: `meta=false&${SMALL}`,
    check: ({ body }) => assert.deepEqual([body.data.screenshot.type, body.data.screenshot.width], ['png', 400]),
  },
  {
    param: 'screenshot.element',
    verdict: 'works',
    with: 'screenshot.element=%23box',
    context: `screenshot&meta=false&${SMALL}`,
    check: ({ body }) => assert.deepEqual([body.data.screenshot.width, body.data.screenshot.height], [50, 50]),
  },
  {
    param: 'screenshot.fullPage',
    verdict: 'works',
    with: 'screenshot.fullPage',
    context: `screenshot&meta=false&${SMALL}`,
    check: ({ body }) => assert.ok(body.data.screenshot.height > 3000, String(body.data.screenshot.height)),
  },
  {
    param: 'screenshot.type',
    verdict: 'works',
    with: 'screenshot.type=jpeg',
    context: `screenshot&meta=false&${SMALL}`,
    check: async (answer, tools) => {
      assert.equal(answer.body.data.screenshot.type, 'jpg');
      assert.deepEqual([...(await tools.download(answer.body.data.screenshot.url)).body.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    },
  },
  {
    param: 'screenshot.quality',
    verdict: 'works',
    with: 'screenshot.quality=5',
    context: `screenshot.type=jpeg&meta=false&${SMALL}&${GRADIENT}`,
    check: async (answer, tools) => {
      const best = await tools.service.json(q(`${tools.site.url}/`, `screenshot.type=jpeg&screenshot.quality=100&meta=false&${SMALL}&${GRADIENT}`));
      assert.ok(answer.body.data.screenshot.size < best.body.data.screenshot.size / 2, 'quality 5 is far smaller than 100');
    },
  },
  {
    param: 'screenshot.omitBackground',
    verdict: 'works',
    with: 'screenshot.omitBackground',
    context: `screenshot&meta=false&${SMALL}`,
    check: async (answer, tools) => assert.equal(pixel(await shotOf(answer, tools), 399, 1)[3], 0, 'transparent where the page has no background'),
  },
  {
    param: 'screenshot.optimizeForSpeed',
    verdict: 'works',
    with: 'screenshot.optimizeForSpeed',
    context: `screenshot&meta=false&${SMALL}&${GRADIENT}`,
    check: async (answer, tools) => {
      const compact = await tools.service.json(q(`${tools.site.url}/`, `screenshot&meta=false&${SMALL}&${GRADIENT}`));
      assert.ok(answer.body.data.screenshot.size > compact.body.data.screenshot.size, 'encoded for speed, not size');
    },
  },
  {
    param: 'screenshot.codeScheme',
    verdict: 'works',
    with: 'screenshot.codeScheme=dracula',
    context: `screenshot&meta=false&${SMALL}`,
    path: '/data.json',
    check: async (answer, tools) => {
      // dracula's background, #282a36, in the corner of the highlighted JSON (the default atom-dark is #1d1f21).
      assert.deepEqual(pixel(await shotOf(answer, tools), 2, 2).slice(0, 3), [0x28, 0x2a, 0x36]);
    },
  },
  {
    param: 'screenshot.overlay.browser',
    covers: ['screenshot.overlay'],
    verdict: 'works',
    with: 'screenshot.overlay.browser=dark',
    context: `screenshot&meta=false&${SMALL}`,
    check: ({ body }) => assert.ok(body.data.screenshot.height > 300, 'a window frame around the capture'),
  },
  {
    param: 'screenshot.overlay.background',
    verdict: 'works',
    with: 'screenshot.overlay.background=%2300ff00',
    context: `screenshot.overlay.browser=light&meta=false&${SMALL}`,
    check: async (answer, tools) => assert.deepEqual(pixel(await shotOf(answer, tools), 0, 0).slice(0, 3), [0, 255, 0]),
  },
  {
    param: 'screenshot.palette',
    verdict: 'works',
    with: 'screenshot.palette',
    context: `screenshot&meta=false&${SMALL}&styles=${encodeURIComponent('html,body{background:rgb(255,0,0)}')}`,
    check: ({ body }) => {
      assert.equal(body.data.screenshot.background_color, '#FF0000');
      assert.ok(Array.isArray(body.data.screenshot.palette) && body.data.screenshot.palette.length > 0);
    },
  },
  { param: 'screenshot.animated', verdict: 'refused', with: 'screenshot.animated', context: 'screenshot' },
  {
    param: 'pdf',
    verdict: 'works',
    with: 'pdf',
    context: 'meta=false',
    check: async (answer, tools) => assert.equal((await pdfOf(answer, tools)).subarray(0, 4).toString(), '%PDF'),
  },
  {
    param: 'pdf.format',
    verdict: 'works',
    with: 'pdf.format=A6',
    context: 'pdf&meta=false',
    check: async (answer, tools) => assert.deepEqual(mediaBoxes(await pdfOf(answer, tools))[0]?.map(Math.round), [298, 420]),
  },
  {
    param: 'pdf.landscape',
    verdict: 'works',
    with: 'pdf.landscape',
    context: 'pdf&meta=false',
    check: async (answer, tools) => {
      const [width = 0, height = 0] = mediaBoxes(await pdfOf(answer, tools))[0] ?? [];
      assert.ok(width > height && Math.round(width) === 842, `${width}×${height}`);
    },
  },
  {
    param: 'pdf.width / pdf.height',
    covers: ['pdf.height'],
    verdict: 'works',
    with: 'pdf.width=4in&pdf.height=288px',
    context: 'pdf&meta=false',
    check: async (answer, tools) => assert.deepEqual(mediaBoxes(await pdfOf(answer, tools))[0]?.map(Math.round), [288, 216]),
  },
  {
    param: 'pdf.width',
    verdict: 'works',
    with: 'pdf.width=4in',
    context: 'pdf&meta=false&pdf.format=A6',
    check: async (answer, tools) => assert.deepEqual(mediaBoxes(await pdfOf(answer, tools))[0]?.map(Math.round), [288, 420]),
  },
  {
    param: 'pdf: the legacy flat keys',
    verdict: 'works',
    // Microlink's own pdf examples write `&pdf&scale=1&margin=0.4cm`; each flat key is read in tests/query/pdf.test.ts.
    with: 'format=A6',
    context: 'pdf&meta=false',
    check: async (answer, tools) => assert.deepEqual(mediaBoxes(await pdfOf(answer, tools))[0]?.map(Math.round), [298, 420]),
  },
  {
    param: 'pdf.margin.<side>',
    verdict: 'works',
    with: 'pdf.margin.top=3in&pdf.margin.right=1in&pdf.margin.bottom=3in&pdf.margin.left=1in',
    context: 'pdf&meta=false',
    path: '/long',
    covers: ['pdf.margin.top', 'pdf.margin.right', 'pdf.margin.bottom', 'pdf.margin.left'],
    check: async (answer, tools) => {
      const none = await tools.service.json(q(`${tools.site.url}/long`, 'pdf&meta=false&pdf.margin=0'));
      const pages = async (one: Answer) => mediaBoxes(await pdfOf(one, tools)).length;
      assert.ok((await pages(answer)) > (await pages(none)), 'less room on each page, more pages');
    },
  },
  {
    param: 'pdf.pageRanges',
    verdict: 'works',
    with: 'pdf.pageRanges=1',
    context: 'pdf&meta=false',
    path: '/long',
    check: async (answer, tools) => assert.equal(mediaBoxes(await pdfOf(answer, tools)).length, 1),
  },
  ...(
    [
      ['pdf.margin', '2in', '0', 'less room on each page'],
      ['pdf.scale', '2', '0.5', 'larger print'],
    ] as const
  ).map(
    ([param, value, other, why]): Row => ({
      param,
      verdict: 'works',
      with: `${param}=${value}`,
      context: 'pdf&meta=false',
      path: '/long',
      check: async (answer, tools) => {
        const fewer = await tools.service.json(q(`${tools.site.url}/long`, `pdf&meta=false&${param}=${other}`));
        const pages = async (one: Answer) => mediaBoxes(await pdfOf(one, tools)).length;
        assert.ok((await pages(answer)) > (await pages(fewer)), `${why}, more pages`);
      },
    }),
  ),
  {
    param: 'pdf.printBackground',
    verdict: 'works',
    with: 'pdf.printBackground=false',
    context: 'pdf&meta=false',
    check: async (answer, tools) => {
      const withBackground = await tools.service.json(q(`${tools.site.url}/`, 'pdf&meta=false'));
      assert.equal(fillsBlue(await pdfOf(withBackground, tools)), true, 'printed by default');
      assert.equal(fillsBlue(await pdfOf(answer, tools)), false, 'the blue box, a background, is not printed');
    },
  },
  {
    param: 'filename',
    verdict: 'works',
    with: 'filename=invoice',
    context: 'pdf&meta=false',
    check: async (answer, tools) => {
      assert.match(answer.body.data.pdf.url, /\/[0-9a-f]{64}\/invoice\.pdf$/);
      assert.equal((await tools.download(answer.body.data.pdf.url)).headers.get('content-disposition'), 'inline; filename="invoice.pdf"');
    },
  },
  {
    param: 'prerender',
    verdict: 'works',
    with: 'prerender=true',
    check: ({ headers }) => assert.equal(headers.get('x-fetch-mode'), 'prerender'),
  },
  { param: 'embed', verdict: 'works', with: 'embed=title', check: ({ body }) => assert.equal(body, 'Table') },
  { param: 'stream', verdict: 'works', with: 'stream=title', check: ({ body }) => assert.equal(body, 'Table') },
  { param: 'filter', verdict: 'works', with: 'filter=title', check: ({ body }) => assert.deepEqual(Object.keys(body.data), ['title']) },
  {
    param: 'force',
    alone: true,
    verdict: 'works',
    with: 'force',
    cacheOnly: true,
    check: ({ headers }) => assert.equal(headers.get('x-cache-status'), 'BYPASS'),
  },
  {
    param: 'ttl',
    alone: true,
    verdict: 'works',
    with: 'ttl=1h',
    cacheOnly: true,
    check: ({ headers }) => assert.equal(headers.get('x-cache-ttl'), '3600000'),
  },
  {
    param: 'staleTtl',
    alone: true,
    verdict: 'works',
    with: 'staleTtl=1m',
    cacheOnly: true,
    check: ({ headers }) => assert.match(headers.get('cache-control') ?? '', /stale-while-revalidate=/),
  },
  {
    param: 'cacheKey',
    alone: true,
    verdict: 'works',
    with: 'cacheKey=v2',
    check: ({ headers }) => assert.equal(headers.get('x-cache-status'), 'MISS', 'a label of its own, not the shared answer'),
  },
  {
    param: 'headers',
    verdict: 'works',
    with: 'headers.x-probe=hello',
    path: '/echo',
    check: ({ body }) => assert.equal(body.data.title, 'x-probe: hello'),
  },
  {
    param: 'ping',
    verdict: 'works',
    with: 'ping=false',
    check: ({ body }) => assert.deepEqual(Object.keys(body.data.image).sort(), ['type', 'url'], 'not probed: no size'),
  },
  {
    param: 'ping.<field>',
    verdict: 'works',
    with: 'ping.image=false',
    check: ({ body }) => {
      assert.equal(body.data.image.size, undefined);
      assert.equal(typeof body.data.logo.size, 'number', 'the logo is still probed');
    },
  },
  {
    param: 'timeout',
    verdict: 'works',
    with: 'timeout=20s',
    check: async (_answer, { site, service }) => {
      // Accepted as documented; what it bounds is seen in tests/app/deadline.test.ts. Under the 1 s minimum: named.
      const short = await service.json(q(`${site.url}/`, 'timeout=1ms'));
      assert.equal(short.status, 400);
      assert.deepEqual(Object.keys(short.body.data), ['timeout']);
    },
  },
  {
    param: 'waitForSelector',
    verdict: 'works',
    with: 'waitForSelector=%23late',
    context: probe("document.getElementById('late')?.textContent ?? null"),
    check: ({ body }) => assert.equal(body.data.v, 'appeared'),
  },
  {
    param: 'waitForTimeout',
    verdict: 'works',
    with: 'waitForTimeout=1s',
    context: probe('window.late ?? null'),
    check: ({ body }) => assert.equal(body.data.v, 'waited'),
  },
  {
    param: 'waitUntil',
    verdict: 'works',
    with: 'waitUntil=domcontentloaded',
    context: probe('document.readyState'),
    check: ({ body }) => assert.ok(['interactive', 'complete'].includes(body.data.v), body.data.v),
  },
  {
    param: 'click',
    verdict: 'works',
    with: 'click=%23button',
    context: probe('document.body.dataset.clicked ?? null'),
    check: ({ body }) => assert.equal(body.data.v, 'yes'),
  },
  {
    param: 'scroll',
    verdict: 'works',
    with: 'scroll=%23far',
    context: probe('window.scrollY > 1000'),
    check: ({ body }) => assert.equal(body.data.v, true),
  },
  {
    param: 'scripts',
    verdict: 'works',
    with: `scripts=${encodeURIComponent("document.body.dataset.injected = 'script'")}`,
    context: probe('document.body.dataset.injected ?? null'),
    check: ({ body }) => assert.equal(body.data.v, 'script'),
  },
  {
    param: 'styles',
    verdict: 'works',
    with: `styles=${encodeURIComponent('#box{width:70px}')}`,
    context: probe("getComputedStyle(document.getElementById('box')).width"),
    check: ({ body }) => assert.equal(body.data.v, '70px'),
  },
  { param: 'modules', verdict: 'refused', with: 'modules=https%3A%2F%2Fexample.com%2Fm.js' },
  {
    param: 'adblock',
    verdict: 'works',
    with: 'adblock=false',
    context: probe("getComputedStyle(document.querySelector('.cc-window')).display"),
    check: ({ body }) => assert.notEqual(body.data.v, 'none', 'the consent banner is left as served'),
  },
  {
    param: 'animations',
    verdict: 'works',
    with: 'animations=true',
    context: probe("matchMedia('(prefers-reduced-motion: reduce)').matches"),
    check: ({ body }) => assert.equal(body.data.v, false),
  },
  {
    param: 'colorScheme',
    verdict: 'works',
    with: 'colorScheme=dark',
    context: probe("matchMedia('(prefers-color-scheme: dark)').matches"),
    check: ({ body }) => assert.equal(body.data.v, true),
  },
  {
    param: 'mediaType',
    verdict: 'works',
    with: 'mediaType=print',
    context: probe("matchMedia('print').matches"),
    check: ({ body }) => assert.equal(body.data.v, true),
  },
  {
    param: 'javascript',
    verdict: 'works',
    with: 'javascript=false',
    context: 'meta=false&prerender=true&data.v.selector=html&data.v.attr=data-js',
    check: ({ body }) => assert.equal(body.data.v, null, "the page's script never ran"),
  },
  {
    param: 'device',
    verdict: 'works',
    with: 'device=iPhone%2015%20Pro',
    context: probe('navigator.userAgent'),
    check: ({ body }) => assert.match(body.data.v, /iPhone/),
  },
  ...(
    [
      ['width', '500', 'innerWidth', 500],
      ['height', '400', 'innerHeight', 400],
      ['deviceScaleFactor', '3', 'devicePixelRatio', 3],
      // A mobile viewport lays a page without <meta name=viewport> out at 980 CSS px, as phones do.
      ['isMobile', 'true', 'document.documentElement.clientWidth', 980],
      ['hasTouch', 'true', 'navigator.maxTouchPoints > 0', true],
      ['isLandscape', 'true', "screen.orientation.type.startsWith('landscape')", true],
    ] as const
  ).map(
    ([key, value, expression, expected]): Row => ({
      param: `viewport.${key}`,
      covers: key === 'width' ? ['viewport'] : undefined,
      verdict: 'works',
      with: `viewport.${key}=${value}`,
      context: `${probe(expression)}${key === 'isLandscape' ? '&device=iPhone%2015%20Pro' : key === 'isMobile' ? '&viewport.width=400' : ''}`,
      check: ({ body }) => assert.equal(body.data.v, expected),
    }),
  ),
  { param: 'function', verdict: 'refused', with: `function=${encodeURIComponent('({ page }) => page.title()')}` },
  { param: 'proxy', verdict: 'refused', with: 'proxy=http%3A%2F%2Fproxy.example%3A8080', covers: ['proxy.url', 'proxy.location'] },
  { param: 'retry', verdict: 'refused', with: 'retry=2' },
];

/** Microlink's parameter reference: its pages (https://microlink.io/docs/api/parameters/…) and the sub-options they document. */
const REFERENCE = [
  'adblock', 'animations', 'audio', 'cacheKey', 'click', 'colorScheme', 'data', 'data.<field>.selector',
  'data.<field>.selectorAll', 'data.<field>.attr', 'data.<field>.type', 'data.<field>.evaluate', 'device', 'embed',
  'filename', 'filter', 'force', 'function', 'headers', 'iframe', 'iframe.maxWidth', 'iframe.maxHeight', 'insights',
  'insights.lighthouse', 'insights.technologies', 'javascript', 'mediaType', 'meta', 'meta.logo.square', 'modules',
  'palette', 'pdf', 'pdf.format', 'pdf.height', 'pdf.landscape', 'pdf.margin', 'pdf.margin.top', 'pdf.margin.right',
  'pdf.margin.bottom', 'pdf.margin.left', 'pdf.pageRanges', 'pdf.scale', 'pdf.width', 'ping', 'prerender', 'proxy',
  'retry', 'screenshot', 'screenshot.animated', 'screenshot.codeScheme', 'screenshot.element', 'screenshot.fullPage',
  'screenshot.omitBackground', 'screenshot.overlay', 'screenshot.overlay.background', 'screenshot.overlay.browser',
  'screenshot.quality', 'screenshot.type', 'scripts', 'scroll', 'staleTtl', 'styles', 'timeout', 'ttl', 'url', 'video',
  'viewport', 'viewport.width', 'viewport.height', 'viewport.deviceScaleFactor', 'viewport.isMobile',
  'viewport.hasTouch', 'viewport.isLandscape', 'waitForSelector', 'waitForTimeout', 'waitUntil',
];

/** mql's client options, never sent as query parameters. */
const CLIENT_ONLY: Readonly<Record<string, string>> = {
  apiKey: 'sent as the x-api-key header (tests/app/auth.test.ts, tests/app/mql.test.ts)',
  endpoint: "the address mql sends to: a Glance's own (tests/app/mql.test.ts)",
};

describe('the table is complete, and no object parameter ignores a key', () => {
  const covered = new Set(ROWS.flatMap((row) => [row.param, ...(row.covers ?? [])]));

  test("every option of @microlink/mql's type definitions has a row", () => {
    const api = mqlOptionKeys('MicrolinkApiOptions');
    assert.ok(api.includes('screenshot.palette') && api.includes('pdf.margin.top'), 'the walk reached nested types');
    assert.deepEqual(api.filter((key) => !covered.has(key)), []);
    assert.deepEqual(mqlOptionKeys('MqlClientOptions').filter((key) => !covered.has(key) && !Object.hasOwn(CLIENT_ONLY, key)), []);
  });

  test("every parameter of Microlink's reference has a row", () => {
    assert.deepEqual(REFERENCE.filter((key) => !covered.has(key)), []);
  });

  test('a refused row refuses every key it covers, by its name', () => {
    for (const row of ROWS.filter((one) => one.verdict === 'refused')) {
      for (const key of row.covers ?? []) {
        assert.throws(() => parseQuery(q('https://example.com/', `${key}=x`)), (error: GlanceError) => error.code === 'EUNSUPPORTED' && row.param in (error.data ?? {}), key);
      }
    }
  });

  test('an unknown sub-key of every object parameter is refused naming it (EINVALQUERY; EINVALDATA in a rule)', () => {
    const keys = mqlOptionKeys('MicrolinkApiOptions');
    // Objects by their sub-keys in mql's types, and those it types as a bare `object`; `data` and `headers` take
    // names of the caller's choosing, `proxy` is refused whole.
    const objects = [...new Set([...keys.flatMap((key) => (key.includes('.') ? [key.slice(0, key.lastIndexOf('.'))] : [])), 'viewport', 'ping', 'embed'])]
      .filter((key) => !['data', 'proxy'].includes(key));
    assert.deepEqual(objects.sort(), ['data.<field>', 'embed', 'iframe', 'insights', 'meta', 'meta.logo', 'pdf', 'pdf.margin', 'ping', 'screenshot', 'screenshot.overlay', 'viewport']);
    for (const object of objects) {
      const prefix = object.replace('<field>', 'f');
      const beside = object === 'embed' ? 'embed=title&' : object === 'data.<field>' ? 'data.f.selector=h1&' : '';
      const name = `${prefix}.zz`;
      assert.throws(
        () => parseQuery(q('https://example.com/', `${beside}${name}=1`)),
        (error: GlanceError) => error.code === (object.startsWith('data') ? 'EINVALDATA' : 'EINVALQUERY') && Object.keys(error.data ?? {}).includes(name) && error.message.includes(`\`${name}\``),
        name,
      );
    }
  });
});

describe('every Microlink parameter works or is refused by name', () => {
  let site: TestServer;
  let service: Service;
  let tools: Tools;
  before(async () => {
    const red = pngOf(40, 30, () => [255, 0, 0]);
    const binary = (type: string, bytes: Buffer) => (_req: IncomingMessage, res: import('node:http').ServerResponse) =>
      void res.writeHead(200, { 'content-type': type, 'content-length': bytes.length }).end(bytes);
    site = await startServer({
      '/': html(PAGE),
      '/long': html(LONG),
      '/echo': (req, res) => html(`<title>x-probe: ${String(req.headers['x-probe'] ?? 'none')}</title>`)(req, res),
      '/data.json': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1,"b":[true,null]}'),
      '/photo.png': binary('image/png', red),
      '/icon.png': binary('image/png', png(64, 64)),
      '/sound.mp3': binary('audio/mpeg', mp3(40)),
      '/clip.mp4': binary('video/mp4', mp4(2)),
      '/oembed': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ version: '1.0', type: 'rich', html: '<iframe src="https://player.example/embedded"></iframe>' })),
    });
    service = await startService();
    tools = {
      site,
      service,
      async download(url) {
        const response = await fetch(url);
        assert.equal(response.status, 200, url);
        return { body: Buffer.from(await response.arrayBuffer()), headers: response.headers };
      },
    };
  });
  after(async () => {
    await service?.close();
    await site?.close();
  });

  const join = (...parts: Array<string | undefined>): string => parts.filter(Boolean).join('&');

  const rowTests = (rows: readonly Row[]) => () => rows.forEach(rowTest);
  // Two at a time, as many as the renderer opens pages at once (lib/browser/index.ts, MAX_PAGES): one row's waits
  // (its page's timers, network quiet, an upload) overlap the other's work, and nothing waits in the renderer's line.
  describe('the rows that may run beside another', { concurrency: 2 }, rowTests(ROWS.filter((row) => !row.alone)));
  describe('the rows that run alone', rowTests(ROWS.filter((row) => row.alone)));

  function rowTest(row: Row): void {
    const query = (target: string) => q(target, join(row.context, row.with));

    test(`${row.param}: ${row.verdict}`, async () => {
      const target = `${site.url}${row.path ?? '/'}`;
      const response = await service.request(query(target));
      const text = await response.text();
      const body = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
      const answer: Answer = { status: response.status, headers: response.headers, body };
      if (row.verdict === 'refused') {
        assert.equal(answer.status, 400, text);
        assert.equal(body.code, 'EUNSUPPORTED');
        assert.deepEqual(Object.keys(body.data), [row.param]);
        assert.match(body.message, new RegExp(`\`${row.param.replace('.', '\\.')}\``));
        return;
      }
      assert.equal(answer.status, 200, text.slice(0, 500));
      await row.check?.(answer, tools);
    });

    if (row.verdict === 'works' && row.with !== '') {
      test(`${row.param}: ${row.cacheOnly ? 'shares' : 'splits'} the cache key`, () => {
        const target = `${site.url}${row.path ?? '/'}`;
        const without = cacheKey(parseQuery(q(target, row.context ?? '')));
        const withIt = cacheKey(parseQuery(query(target)));
        if (row.cacheOnly) assert.equal(withIt, without);
        else assert.notEqual(withIt, without);
      });
    }
  }
});
