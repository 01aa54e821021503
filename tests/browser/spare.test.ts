/**
 * The warm spare (lib/browser/spare.ts): the keeper's rules on plain values, then with the real Chromium that no
 * two requests ever share a context (sequential and concurrent), that a spare carries nothing from before, that a
 * dead browser's spare is never handed out, and that nothing (context, proxy server, browser) outlives a close.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Browser, Target } from 'puppeteer-core';
import { MAX_PAGES, type Renderer } from '../../lib/browser/index.ts';
import { Spare, type SpareOps } from '../../lib/browser/spare.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { chromiumChildren, pixel, png, render, stateRoutes, testRenderer } from './helpers.ts';

/** Spares numbered in order of making; what was discarded, and `lose(n)` kills spare n while it waits. */
function plainOps(options: { fail?: () => boolean; usable?: (n: number) => boolean; makeMs?: number } = {}) {
  let made = 0;
  const discarded: number[] = [];
  const watchers = new Map<number, () => void>();
  const ops: SpareOps<number> = {
    make: async () => {
      await sleep(options.makeMs ?? 5);
      if (options.fail?.()) throw new Error('no browser');
      return ++made;
    },
    usable: (n) => options.usable?.(n) ?? true,
    watch: (n, lost) => {
      watchers.set(n, lost);
      return () => watchers.delete(n);
    },
    discard: async (n) => void discarded.push(n),
  };
  return { ops, discarded, made: () => made, lose: (n: number) => watchers.get(n)?.(), watching: () => watchers.size };
}

describe('Spare (the keeper)', () => {
  test('each spare is handed out once; the next is made in the background; none is waited for', async () => {
    const { ops, made } = plainOps();
    const spare = new Spare(ops, () => 1);
    assert.equal(spare.take(), undefined, 'nothing is made on the caller\'s clock');
    await spare.prepare();
    assert.equal(spare.take(), 1);
    assert.equal(spare.take(), undefined, 'the next one is still being made');
    await spare.prepare();
    assert.equal(spare.take(), 2);
    await spare.close();
    assert.equal(made(), 3);
  });

  test('nothing is made while the browser is not idle', async () => {
    const { ops, made } = plainOps();
    let idle = false;
    const spare = new Spare(ops, () => (idle ? 1 : 0));
    await spare.prepare();
    assert.equal(made(), 0);
    idle = true;
    await spare.prepare();
    assert.equal(made(), 1);
    await spare.close();
  });

  test('as many are kept as there is room for, made one at a time; none beyond it, and the rest stay when it shrinks', async () => {
    const { ops, made, lose, discarded } = plainOps();
    let room = 2;
    const spare = new Spare(ops, () => room);
    await spare.prepare();
    assert.equal(made(), 2, 'one per free slot');
    await spare.prepare();
    assert.equal(made(), 2, 'no more than the room');
    room = 0;
    assert.equal(spare.take(), 1, 'the oldest first');
    await spare.prepare();
    assert.equal(made(), 2, 'no room: none is made to replace it');
    lose(2);
    assert.deepEqual(discarded, [2], 'a second spare that dies is discarded too');
    assert.equal(spare.take(), undefined);
    room = 2;
    await spare.prepare();
    assert.deepEqual([spare.take(), spare.take()], [3, 4]);
    await spare.close();
  });

  test('a spare that dies while it waits is discarded and never handed out; so is one found unusable', async () => {
    const dead = new Set<number>();
    const { ops, discarded, lose, watching } = plainOps({ usable: (n) => !dead.has(n) });
    const spare = new Spare(ops, () => 1);
    await spare.prepare();
    lose(1);
    assert.deepEqual(discarded, [1]);
    assert.equal(spare.take(), undefined);
    await spare.prepare();
    dead.add(2);
    assert.equal(spare.take(), undefined, 'its browser died before its event arrived');
    await sleep(0);
    assert.deepEqual(discarded, [1, 2]);
    assert.equal(watching(), 0, 'no watcher is left on a spare that is gone');
    await spare.close();
  });

  test('a spare dead before it could be kept is discarded at once, holds no room, and is not replaced unasked', async () => {
    const { ops, discarded, made } = plainOps({ usable: (n) => n !== 1 });
    const spare = new Spare(ops, () => 1);
    await spare.prepare();
    assert.deepEqual(discarded, [1]);
    assert.equal(made(), 1, 'no browser is relaunched for a spare nobody asked for');
    await spare.prepare();
    assert.equal(spare.take(), 2, 'the next making finds the room free');
    await spare.close();
  });

  test('close discards the ready spare, and the one being made once it is ready; nothing is made after', async () => {
    const { ops, discarded, made } = plainOps();
    const spare = new Spare(ops, () => 1);
    await spare.prepare();
    assert.equal(spare.take(), 1);
    await spare.close();
    assert.deepEqual(discarded, [2]);
    spare.refill();
    await spare.prepare();
    assert.equal(made(), 2);
    assert.equal(spare.take(), undefined);
  });

  test('a claim gets the spare being made, once ready, for one caller alone; the next is begun after it', async () => {
    const { ops, made } = plainOps();
    const spare = new Spare(ops, () => 1);
    assert.equal(await spare.claim(), undefined, 'none ready and none being made: nothing to wait for');
    spare.refill();
    const [first, second] = await Promise.all([spare.claim(), spare.claim()]);
    assert.deepEqual([first, second], [1, undefined], 'the spare on its way is promised to the first claim only');
    await spare.prepare();
    assert.equal(made(), 2);
    assert.equal(await spare.claim(), 2, 'a ready spare is claimed at once');
    await spare.close();
  });

  test('a claim waits at most its limit; the spare, once made, is kept for the next caller', async () => {
    const { ops, made } = plainOps({ makeMs: 200 });
    const spare = new Spare(ops, () => 1);
    spare.refill();
    assert.equal(await spare.claim(20), undefined);
    // Its own limit's timer comes before the making's (200 ms), whatever the machine's load: no clock bound needed.
    assert.equal(made(), 0, 'given up before the spare was made');
    await spare.prepare();
    assert.equal(spare.take(), 1);
    await spare.close();
  });

  test('a claim of a spare that cannot be made, or that the keeper closes meanwhile, gets none', async () => {
    const { ops, discarded } = plainOps({ fail: () => true });
    const failing = new Spare(ops, () => 1);
    failing.refill();
    assert.equal(await failing.claim(), undefined);
    const slow = plainOps({ makeMs: 50 });
    const closing = new Spare(slow.ops, () => 1);
    closing.refill();
    const claimed = closing.claim();
    await closing.close();
    assert.equal(await claimed, undefined);
    assert.deepEqual(slow.discarded, [1], 'made after the close, and discarded');
    assert.deepEqual(discarded, []);
  });

  test('a spare that cannot be made is tried again only after a pause', async () => {
    let failing = true;
    const { ops, made } = plainOps({ fail: () => failing });
    const spare = new Spare(ops, () => 1);
    await spare.prepare();
    failing = false;
    await spare.prepare();
    assert.equal(made(), 0, 'within the pause, no second try');
    await sleep(300);
    await spare.prepare();
    assert.equal(spare.take(), 1);
    await spare.close();
  });
});

const PAGE = '<!doctype html><title>ok</title><style>body{margin:0;background:rgb(0,128,0)}</style>';
/** What the page finds of its settings, as its title. */
const MEDIA_PAGE = `<!doctype html><meta name="viewport" content="width=device-width"><title>?</title><script>document.title = JSON.stringify({
  reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches, dark: matchMedia('(prefers-color-scheme: dark)').matches,
  print: matchMedia('print').matches, width: innerWidth, phone: navigator.userAgent.includes('iPhone'),
})</script>`;

/** Context id → the distinct `?n=` addresses its pages were navigated to, from the browser's own target events. */
function recordContexts(browser: Browser): { seen: Map<string, Set<string>>; stop(): void } {
  const seen = new Map<string, Set<string>>();
  const note = (target: Target) => {
    if (target.type() !== 'page') return;
    const id = target.browserContext().id ?? 'default';
    const urls = seen.get(id) ?? new Set<string>();
    seen.set(id, urls);
    const n = /[?&]n=([^&]+)/.exec(target.url())?.[1];
    if (n) urls.add(n);
  };
  browser.on('targetcreated', note);
  browser.on('targetchanged', note);
  return {
    seen,
    stop: () => {
      browser.off('targetcreated', note);
      browser.off('targetchanged', note);
    },
  };
}

/** Listening servers of this process (the guarded proxies among them). */
const listening = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

/** Listening servers once those being closed are gone: a closed server's handle goes a loop turn after its callback. */
async function listeningSettled(expected: number): Promise<number> {
  for (let i = 0; i < 40 && listening() !== expected; i++) await sleep(50);
  return listening();
}

describe('the warm spare in the renderer', () => {
  let site: TestServer;
  let renderer: Renderer;
  const opened: boolean[] = [];
  const lost: string[] = [];
  before(async () => {
    site = await startServer({
      '/': html(PAGE),
      '/media': html(MEDIA_PAGE),
      ...stateRoutes(PAGE),
    });
    renderer = await testRenderer('127.0.0.1', undefined, {}, {
      pageOpened: (spare) => void opened.push(spare),
      browserLost: () => void lost.push('lost'),
    });
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  test('no two requests share a context, sequential or concurrent, and each spare serves one request', { timeout: 60_000 }, async () => {
    const browser = await renderer.getBrowser();
    const record = recordContexts(browser);
    opened.length = 0;
    let n = 0;
    const shot = async () => {
      const result = await render(renderer, `${site.url}/?n=${++n}`, 'screenshot&viewport.width=200&viewport.height=100');
      assert.deepEqual(pixel(png(result.screenshot!.body), 5, 5), [0, 128, 0, 255]);
    };
    try {
      for (let i = 0; i < 6; i++) {
        await shot();
        // The page closed and the next spare ready: each of these shots after the first takes one.
        await renderer.warm();
      }
      for (let round = 0; round < 3; round++) await Promise.all([shot(), shot(), shot(), shot()]);
      for (let i = 0; i < 3; i++) await shot();
    } finally {
      record.stop();
    }
    const shared = [...record.seen].filter(([, urls]) => urls.size > 1);
    assert.deepEqual(shared, [], 'a context that loaded two requests\' pages');
    const loaded = [...record.seen.values()].flatMap((urls) => [...urls]);
    assert.equal(new Set(loaded).size, n, 'every request seen in a context of its own');
    assert.equal(loaded.length, n);
    assert.equal(opened.length, n);
    assert.ok(opened.filter(Boolean).length >= 6, `spares were used: ${opened.join(',')}`);
    assert.ok(opened.filter(Boolean).length < n, 'under concurrency some requests made their own page');
    await renderer.warm();
    assert.equal(browser.browserContexts().length - 1, MAX_PAGES, 'a spare context per free slot is left open, no request\'s');
  });

  test('a spare primed with the usual settings takes each request\'s own: media, device, user agent', async () => {
    const seen = async (query: string) => {
      await renderer.warm();
      opened.length = 0;
      const result = await render(renderer, `${site.url}/media`, query, { capture: { html: true } });
      assert.deepEqual(opened, [true], `the spare served ${query || 'the defaults'}`);
      return JSON.parse(/<title>([^<]*)<\/title>/.exec(result.html ?? '')![1]!.replaceAll('&quot;', '"')) as Record<string, unknown>;
    };
    assert.deepEqual(await seen(''), { reducedMotion: true, dark: false, print: false, width: 1280, phone: false });
    assert.deepEqual(await seen('animations=true&colorScheme=dark&device=iPhone%2015'), { reducedMotion: false, dark: true, print: false, width: 393, phone: true });
    assert.deepEqual(await seen('mediaType=print&animations=true'), { reducedMotion: false, dark: false, print: true, width: 1280, phone: false });
    assert.deepEqual(await seen('mediaType=print&colorScheme=dark'), { reducedMotion: true, dark: true, print: true, width: 1280, phone: false });
    assert.deepEqual(await seen(''), { reducedMotion: true, dark: false, print: false, width: 1280, phone: false });
  });

  test('a spare page has nothing from the request before it (cookies, local storage)', async () => {
    const browser = await renderer.getBrowser();
    await render(renderer, `${site.url}/store`, '', { capture: { html: true } });
    // The first request's page closed and the next spare made (not merely on its way: that one is claimed only
    // if it comes within SPARE_CLAIM_MS, which a loaded machine can miss).
    await renderer.warm();
    assert.equal(browser.browserContexts().length - 1, MAX_PAGES, 'only the spares\' contexts are open');
    opened.length = 0;
    const result = await render(renderer, `${site.url}/read`, '', { capture: { html: true } });
    assert.deepEqual(opened, [true], 'the second request had the spare');
    assert.match(result.html ?? '', /<p id="cookie">none<\/p>/);
    assert.match(result.html ?? '', /<p id="storage">none<\/p>/);
  });

  test("a dead browser's spare is not handed out: the next request gets a fresh browser, with no lost render", async () => {
    const browser = await renderer.getBrowser();
    await render(renderer, `${site.url}/`, 'screenshot');
    // Counted once the request's own page has closed after its answer, which a count of one could otherwise be.
    await renderer.warm();
    assert.equal(browser.browserContexts().length - 1, MAX_PAGES, 'a spare per free slot is ready');
    const gone = new Promise((resolve) => browser.once('disconnected', resolve));
    browser.process()?.kill('SIGKILL');
    await gone;
    opened.length = 0;
    lost.length = 0;
    const again = await render(renderer, `${site.url}/`, 'screenshot');
    assert.deepEqual(pixel(png(again.screenshot!.body), 10, 10), [0, 128, 0, 255]);
    assert.deepEqual(opened, [false]);
    assert.deepEqual(lost, []);
    assert.notEqual(await renderer.getBrowser(), browser);
  });
});

describe('closing with a spare', () => {
  let site: TestServer;
  before(async () => {
    site = await startServer({ '/': html(PAGE) });
  });
  after(() => site.close());

  for (const mode of ['multi', 'single'] as const) {
    test(`${mode}: close closes the spare, its proxy and its browser: no server or Chromium is left`, { timeout: 30_000 }, async () => {
      const servers = await listeningSettled(1);
      const children = chromiumChildren().size;
      const opened: boolean[] = [];
      const renderer = await testRenderer('127.0.0.1', undefined, { GLANCE_CHROMIUM_MODE: mode, GLANCE_BROWSER_SPARE: 'true' }, { pageOpened: (spare) => void opened.push(spare) });
      await renderer.warm();
      assert.ok(listening() > servers, 'the spare\'s proxy listens');
      for (let i = 0; i < 3; i++) {
        await render(renderer, `${site.url}/`, 'screenshot');
        // Waits for the spare the request's take began to make (a browser launch, in single-process mode).
        await renderer.warm();
      }
      assert.deepEqual(opened, [true, true, true], 'warm() made the first spare; each request refilled the next');
      await renderer.close();
      assert.equal(await listeningSettled(servers), servers, 'every proxy server closed');
      for (let i = 0; i < 40 && chromiumChildren().size > children; i++) await sleep(100);
      assert.equal(chromiumChildren().size, children);
    });
  }

  test('GLANCE_BROWSER_SPARE=false: no page is made ahead', async () => {
    const opened: boolean[] = [];
    const renderer = await testRenderer('127.0.0.1', undefined, { GLANCE_BROWSER_SPARE: 'false' }, { pageOpened: (spare) => void opened.push(spare) });
    try {
      await renderer.warm();
      const browser = await renderer.getBrowser();
      assert.equal(browser.browserContexts().length, 1);
      await render(renderer, `${site.url}/`, 'screenshot');
      await render(renderer, `${site.url}/`, 'screenshot');
      assert.deepEqual(opened, [false, false]);
      // Once the last page has closed after its answer (a fixed pause could end before that), and warm() would
      // have made a spare if there were one.
      await renderer.warm();
      assert.equal(browser.browserContexts().length, 1);
    } finally {
      await renderer.close();
    }
  });
});
