/**
 * `adblock` end to end: an ad script on a blocked pattern is never requested, and a consent banner that a packaged
 * cosmetic rule hides is absent from the capture; `adblock=false` captures both. Every host name resolves to this
 * machine's test server, so the server's hits tell what the browser requested.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import type { Resolver } from '../../lib/guard/lookup.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const AD_HOST = 'securepubads.g.doubleclick.net';
/**
 * The page is served under a public-looking name: the packaged lists turn generic hiding off for pages on
 * 127.0.0.1 and localhost (`@@://127.0.0.1$generichide`, for developers' own pages), which no real target is.
 */
const SITE_HOST = 'news.example';
const everythingHere: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

// An Osano-style cookieconsent banner (`.cc-window`), as pasted by thousands of sites, in solid black.
const page = (port: number) => `<!doctype html><html><head><title>News</title>
<style>body{margin:0;background:#fff} .cc-window{position:fixed;left:0;right:0;bottom:0;height:240px;background:#000;color:#fff}</style>
<script src="http://${AD_HOST}:${port}/tag/js/gpt.js"></script></head>
<body><h1>Headline</h1>
<div role="dialog" aria-describedby="cookieconsent:desc" class="cc-window cc-banner cc-type-opt-in">
<span id="cookieconsent:desc">This website uses cookies.</span><a class="cc-btn cc-allow">Allow</a></div></body></html>`;

describe('adblock through the service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/tag/js/gpt.js': (_req, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.ads = true;'),
    });
    site.route('/', html(page(site.port)));
    service = await startService({ resolver: everythingHere, buildsAdblockEngine: true });
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  const capture = async (query: string) => {
    const { status, body } = await service.json(q(`http://${SITE_HOST}:${site.port}/`, `screenshot&meta=false&force&${query}`));
    assert.equal(status, 200, JSON.stringify(body));
    return PNG.sync.read(Buffer.from(await (await fetch(body.data.screenshot.url)).arrayBuffer()));
  };
  const adHits = () => site.hits.filter((hit) => hit.startsWith('/tag/js/gpt.js')).length;
  /** Share of dark pixels in the bottom 100 image rows, where the banner sits. */
  const darkBottom = (png: PNG) => {
    let dark = 0;
    for (let y = png.height - 100; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) if (png.data[(y * png.width + x) * 4]! < 64) dark++;
    }
    return dark / (100 * png.width);
  };

  test('with adblock (the default) the ad script is not requested and the banner is not captured', async () => {
    const before = adHits();
    const clean = await capture('');
    assert.equal(adHits(), before, 'the ad script was requested');
    assert.equal(darkBottom(clean), 0);
  });

  test('adblock=false requests the ad and captures the banner; the two images differ where the banner is', async () => {
    const clean = await capture('adblock=true');
    const before = adHits();
    const banner = await capture('adblock=false');
    assert.equal(adHits(), before + 1);
    assert.ok(darkBottom(banner) > 0.95, `banner pixels: ${darkBottom(banner)}`);
    let differing = 0;
    for (let i = 0; i < clean.data.length; i += 4) if (clean.data[i] !== banner.data[i]) differing++;
    // The banner is 240 of 800 CSS px tall: at least a quarter of the image changes.
    assert.ok(differing / (clean.width * clean.height) > 0.25, `${differing} pixels differ`);
  });

  test('an invalid adblock value names the parameter', async () => {
    const { status, body } = await service.json(q(`${site.url}/`, 'adblock=sometimes'));
    assert.equal(status, 400);
    assert.match(body.message, /adblock/);
  });
});
