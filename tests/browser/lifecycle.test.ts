/**
 * The browser's life and a page's: lazy shared launch, relaunch after the process dies, one retry after the
 * browser dies (none after the page crashes its renderer), bounded waits on pages that never finish, and the
 * main response reported as the fetcher reports it.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { BrowserHost } from '../../lib/browser/browser.ts';
import type { Renderer } from '../../lib/browser/index.ts';
import { spareOps, withPage } from '../../lib/browser/page.ts';
import { Spare } from '../../lib/browser/spare.ts';
import { Budget } from '../../lib/time/budget.ts';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { codeOf, pixel, PLAIN_SETUP, png, render, TEST_ARGS, testRenderer } from './helpers.ts';
import { localGuess } from '../helpers/charset.ts';

const PAGE = '<!doctype html><title>ok</title><style>body{margin:0;background:rgb(0,128,0)}</style>';
const BUSY_TASK = 'setTimeout(() => { const end = performance.now() + 300; while (performance.now() < end); }, 0)';

describe('browser lifecycle', () => {
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    site = await startServer({
      '/': html(PAGE, { 'x-test': 'yes' }),
      '/old': (_req, res) => void res.writeHead(301, { location: '/middle' }).end(),
      '/middle': (_req, res) => void res.writeHead(302, { location: '/' }).end(),
      '/missing': html('<title>gone</title>', {}, 404),
      '/js-redirect': html('<title>moving</title><script>location.replace("/")</script>'),
      '/meta-refresh': html('<title>moving</title><meta http-equiv="refresh" content="0;url=/">'),
      // The refresh waits for the renderer: a zero-delay task queued at `load` holds it past the network's quiet.
      '/meta-refresh-busy': html(`<title>moving</title><meta http-equiv="refresh" content="0;url=/"><body onload="${BUSY_TASK}">`),
      '/refresh-later': html('<title>later</title><meta http-equiv="refresh" content="30;url=/">'),
      '/refresh-header': html(`<title>moving</title><body onload="${BUSY_TASK}">`, { refresh: '0; url=/' }),
      // A private address the browser's guard refuses (only 127.0.0.1 is allowed here), over a CONNECT tunnel.
      '/refresh-private': html('<title>moving</title><meta http-equiv="refresh" content="0;url=https://10.0.0.1/">'),
      // An image that never answers: `load` never fires.
      '/hang.png': () => undefined,
      '/stalls': html(`${PAGE}<img src="/hang.png">`),
    });
    renderer = await testRenderer();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  test('concurrent first calls share one launch', async () => {
    const [first, second] = await Promise.all([renderer.getBrowser(), renderer.getBrowser()]);
    assert.equal(first, second);
  });

  test('a killed browser process is replaced on the next request', async () => {
    const before = await render(renderer, `${site.url}/`, 'screenshot');
    assert.ok(before.screenshot);
    const browser = await renderer.getBrowser();
    browser.process()?.kill('SIGKILL');
    const again = await render(renderer, `${site.url}/`, 'screenshot');
    assert.deepEqual(pixel(png(again.screenshot!.body), 10, 10), [0, 128, 0, 255]);
    assert.notEqual(await renderer.getBrowser(), browser);
  });

  test('reports the final URL, status, headers, redirect chain and timings', async () => {
    const result = await render(renderer, `${site.url}/old`, '', { capture: { html: true } });
    assert.equal(result.url, `${site.url}/`);
    assert.equal(result.statusCode, 200);
    assert.equal(result.headers['x-test'], 'yes');
    assert.deepEqual(result.redirects, [
      { statusCode: 301, url: `${site.url}/middle` },
      { statusCode: 302, url: `${site.url}/` },
    ]);
    assert.match(result.html ?? '', /<title>ok<\/title>/);
    for (const step of ['launch', 'open', 'navigate', 'capture']) assert.equal(typeof result.timings[step], 'number', step);
  });

  test('a client-side redirect is followed and the final document reported', async () => {
    for (const path of ['/js-redirect', '/meta-refresh', '/meta-refresh-busy', '/refresh-header']) {
      const result = await render(renderer, `${site.url}${path}`, '', { capture: { html: true } });
      assert.equal(result.url, `${site.url}/`, path);
      assert.equal(result.headers['x-test'], 'yes', path);
      assert.match(result.html ?? '', /<title>ok<\/title>/, path);
    }
  });

  test('a refresh due later is part of the page: it is answered as it is', async () => {
    const result = await render(renderer, `${site.url}/refresh-later`, '', { capture: { html: true } });
    assert.equal(result.url, `${site.url}/refresh-later`);
    assert.match(result.html ?? '', /<title>later<\/title>/);
  });

  test("a refresh to an address the guard refuses is that refusal, not Chromium's error page answered as the target", async () => {
    assert.equal(await codeOf(render(renderer, `${site.url}/refresh-private`, '', { capture: { html: true } })), 'EFORBIDDENURL');
  });

  test('a 404 page is rendered and its status reported', async () => {
    const result = await render(renderer, `${site.url}/missing`, 'screenshot');
    assert.equal(result.statusCode, 404);
    assert.ok(result.screenshot);
  });

  test('waitUntil=auto captures what loaded when one request never ends', async () => {
    const started = performance.now();
    const result = await render(renderer, `${site.url}/stalls`, 'screenshot', { timeout: 4000 });
    assert.ok(performance.now() - started < 4000);
    assert.deepEqual(pixel(png(result.screenshot!.body), 10, 10), [0, 128, 0, 255]);
  });

  test('waitUntil=load on a page that never loads is EBRWSRTIMEOUT within the budget', async () => {
    const started = performance.now();
    assert.equal(await codeOf(render(renderer, `${site.url}/stalls`, 'screenshot&waitUntil=load', { timeout: 2500 })), 'EBRWSRTIMEOUT');
    assert.ok(performance.now() - started < 2800);
  });

  test('a target that refuses connections is EFETCH', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(render(renderer, `http://127.0.0.1:${port}/`, 'screenshot'), (error: any) => {
      assert.equal(error.code, 'EFETCH');
      assert.match(error.message, /refused/);
      return true;
    });
  });

  test('the overlay is drawn in the capture\'s own page: one page per render, no network for the frame', async (t) => {
    // Without the spare, which would otherwise be made (a page target) whenever the renderer falls idle, even
    // between this render's answer and the count below.
    const renderer = await testRenderer('127.0.0.1', undefined, { GLANCE_BROWSER_SPARE: 'false' });
    t.after(() => renderer.close());
    const browser = await renderer.getBrowser();
    let pages = 0;
    const count = (target: { type(): string }) => void (target.type() === 'page' && (pages += 1));
    browser.on('targetcreated', count);
    const hits = site.hits.length;
    try {
      const result = await render(renderer, `${site.url}/`, 'screenshot.overlay.background=rgb(255,0,0)&viewport.width=300&viewport.height=200&viewport.deviceScaleFactor=1');
      const image = png(result.screenshot!.body);
      // 300 px wide window on a background with a margin of max(40 px, 8 %) on each side.
      assert.deepEqual([image.width, image.height], [380, 280]);
      assert.deepEqual(pixel(image, 2, 2), [255, 0, 0, 255]);
      assert.deepEqual(pixel(image, 190, 140), [0, 128, 0, 255]);
      assert.deepEqual([result.screenshot!.width, result.screenshot!.height], [380, 280]);
    } finally {
      browser.off('targetcreated', count);
    }
    assert.equal(pages, 1);
    assert.equal(site.hits.length, hits + 1);
  });

  test('at most two pages at once; the others queue and all finish', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => render(renderer, `${site.url}/`, 'screenshot')));
    assert.equal(results.filter((result) => result.screenshot).length, 4);
    assert.ok(results.some((result) => (result.timings.queue ?? 0) > 50), JSON.stringify(results.map((r) => r.timings)));
  });
});

describe('withPage', () => {
  const host = new BrowserHost({ chromium: { mode: 'local', path: undefined, processes: 'multi' }, policy: AddressPolicy.fromSetting(''), extraArgs: TEST_ARGS });
  const env = { host, policy: AddressPolicy.fromSetting(''), maxBodyBytes: 1024 * 1024, guess: localGuess };
  const setup = PLAIN_SETUP;
  after(() => host.closeBrowser());

  test('a page that crashes its renderer is EPAGECRASH and is not run a second time', async () => {
    let runs = 0;
    const work = withPage(env, new Budget(10_000), setup, async ({ page }) => {
      runs += 1;
      const session = await page.createCDPSession();
      await session.send('Page.crash').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      return page.evaluate('1 + 1');
    });
    assert.equal(await codeOf(work), 'EPAGECRASH');
    assert.equal(runs, 1);
  });

  test('work on a browser that dies under it is run again on a fresh browser', async () => {
    const browsers: unknown[] = [];
    const result = await withPage(env, new Budget(10_000), setup, async ({ page }) => {
      browsers.push(page.browser());
      if (browsers.length === 1) {
        page.browser().process()?.kill('SIGKILL');
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
      return page.evaluate('1 + 1');
    });
    assert.equal(result, 2);
    assert.equal(browsers.length, 2);
    assert.notEqual(browsers[0], browsers[1]);
  });

  test('the context is closed after the work, even when it fails', async () => {
    const browser = await host.getBrowser();
    const contexts = browser.browserContexts().length;
    await assert.rejects(withPage(env, new Budget(5000), setup, async () => Promise.reject(new Error('boom'))));
    assert.equal(browser.browserContexts().length, contexts);
  });

  test('work that outlives the budget is cut at the deadline with EBRWSRTIMEOUT', async () => {
    const started = performance.now();
    const never = () => new Promise<never>(() => undefined);
    assert.equal(await codeOf(withPage(env, new Budget(800), setup, never)), 'EBRWSRTIMEOUT');
    assert.ok(performance.now() - started < 1500);
  });

  test('a spare that is ready only after its claimant gave up is closed, never run, and nothing of it is left', { timeout: 30_000 }, async () => {
    const browser = await host.getBrowser();
    const contexts = browser.browserContexts().length;
    // A real spare, made beforehand, whose making then takes 800 ms: past the claimant's budget (500 ms), within its
    // claim (SPARE_CLAIM_MS, 1 s) however slowly a loaded machine opens a page.
    const real = spareOps(env);
    const item = await real.make();
    // Its proxy is the last thing let go (after its context): when that is closed, all of it is.
    let released!: () => void;
    const gone = new Promise<void>((resolve) => (released = resolve));
    const close = item.proxy.close.bind(item.proxy);
    Object.assign(item.proxy, { close: async () => { await close(); released(); } });
    let made = 0;
    const spare = new Spare({ ...real, make: async () => {
      await sleep(800);
      made += 1;
      return item;
    } }, () => (made === 0 ? 1 : 0));
    spare.refill();
    let ran = false;
    const work = withPage({ ...env, spare }, new Budget(500), setup, async () => void (ran = true));
    assert.equal(await codeOf(work), 'EBRWSRTIMEOUT');
    // Its deadline's timer comes before the making's (800 ms), however late a loaded machine runs both.
    assert.equal(made, 0, 'the claimant answers at its deadline, not when the spare comes');
    await spare.prepare();
    await gone;
    assert.equal(made, 1);
    assert.equal(ran, false);
    assert.equal(browser.browserContexts().length, contexts, 'the late spare\'s context is closed');
    assert.equal(spare.take(), undefined, 'and it is not kept for the next caller');
  });
});
