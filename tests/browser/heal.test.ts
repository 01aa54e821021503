/**
 * A browser that heals and knows when to say no: a wedged browser is replaced, a killed one retried, a page
 * that crashes its renderer answered once as EPAGECRASH, a full line or a short budget answered EBUSY at once,
 * a browser recycled after N pages without cutting in-flight work, and a shutdown that launches nothing.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser } from 'puppeteer-core';
import { BrowserHost, UNHEALTHY_LIMIT } from '../../lib/browser/browser.ts';
import { PROBE_TIMEOUT_MS } from '../../lib/time/limits.ts';
import type { Renderer } from '../../lib/browser/index.ts';
import { withPage } from '../../lib/browser/page.ts';
import { loadConfig } from '../../lib/config.ts';
import { Budget } from '../../lib/time/budget.ts';
import { GlanceError } from '../../lib/errors.ts';
import { errorResponse } from '../../lib/http/respond.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { chromiumChildren, codeOf, pixel, PLAIN_SETUP, png, render, TEST_ARGS, testRenderer } from './helpers.ts';
import { localGuess } from '../helpers/charset.ts';

const PAGE = '<!doctype html><title>ok</title><style>body{margin:0;background:rgb(0,128,0)}</style>';
const green = (body: Buffer) => assert.deepEqual(pixel(png(body), 10, 10), [0, 128, 0, 255]);

let site: TestServer;
/** Responses held until the test lets them go. */
const held: ServerResponse[] = [];
let onTrigger: (() => Promise<void>) | undefined;

before(async () => {
  site = await startServer({
    '/': html(PAGE),
    '/slow': async (req, res) => {
      await delay(Number(new URL(req.url ?? '', site.url).searchParams.get('ms') ?? 1500));
      html(PAGE)(req, res);
    },
    '/held': (_req, res) => void held.push(res),
    // A page whose image tells the test the page is loaded and committed (so the test can act on it).
    '/trigger': html(`${PAGE}<img src="/trigger.png">`),
    '/trigger.png': async () => {
      await onTrigger?.();
    },
  });
});
after(() => site.close());

const releaseHeld = () => {
  for (const res of held.splice(0)) html(PAGE)(res.req, res);
};

/** The process id of the running browser. */
const pidOf = async (renderer: Renderer): Promise<number> => (await renderer.getBrowser()).process()!.pid!;

describe('healing', () => {
  let renderer: Renderer;
  const stopped: number[] = [];
  /** What the renderer reported (the Lambda handler counts these as browser_lost and page_crash). */
  const reported = { lost: 0, crashed: 0 };
  before(async () => {
    renderer = await testRenderer(undefined, undefined, {}, { browserLost: () => reported.lost++, pageCrashed: () => reported.crashed++ });
    // As the service does at start-up: the adblock engine's first build is on no test's clock.
    await renderer.prepare();
  });
  after(async () => {
    for (const pid of stopped) {
      for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
        try {
          process.kill(pid, signal);
        } catch {
          // Already gone: the host killed it.
        }
      }
    }
    await renderer.close();
  });

  /**
   * Freezes the renderer's browser (SIGSTOP) once `before` has run, then renders: a probe that really reaches the
   * browser must condemn it and a fresh one serve, well within the 15 s budget the request would otherwise wait out.
   */
  async function frozenThenRendered(before: () => Promise<void>): Promise<void> {
    await render(renderer, `${site.url}/`, 'screenshot');
    await before();
    const wedged = await renderer.getBrowser();
    const pid = wedged.process()!.pid!;
    stopped.push(pid);
    // As after an earlier probe of this browser that answered: puppeteer now has its version in a cache, so only
    // a probe that really reaches the browser can tell that it stopped.
    await wedged.version();
    process.kill(pid, 'SIGSTOP');
    const started = performance.now();
    const result = await render(renderer, `${site.url}/`, 'screenshot', { timeout: 15_000 });
    const took = performance.now() - started;
    green(result.screenshot!.body);
    assert.ok(took < 12_000, `took ${Math.round(took)} ms`);
    assert.notEqual(await renderer.getBrowser(), wedged);
    assert.throws(() => process.kill(pid, 0), 'the wedged browser was killed');
  }

  // Two silent probes (OPEN_SLOW_MS + 2 × PROBE_TIMEOUT_MS) condemn the browser while the page is slow to open.
  test('a browser that stops answering (SIGSTOP) is replaced by the probe, within the first request', { timeout: 40_000 }, () =>
    frozenThenRendered(async () => undefined));

  // The spare is ready, primed with the default settings: the next request sends its browser nothing before goto,
  // so only the probe made as the spare is taken can find that it stopped.
  test('a browser that stops answering while its primed spare waits is found by a probe as the spare is taken', { timeout: 40_000 }, () =>
    frozenThenRendered(() => renderer.warm()));

  test('a browser killed mid-navigation is retried on a fresh one, not blamed on the target', async () => {
    const browser = await renderer.getBrowser();
    const hits = site.hits.filter((hit) => hit.startsWith('/trigger.png')).length;
    const earlier = { ...reported };
    onTrigger = async () => {
      onTrigger = undefined;
      browser.process()!.kill('SIGKILL');
      await delay(10_000);
    };
    const result = await render(renderer, `${site.url}/trigger`, 'screenshot', { timeout: 12_000 });
    green(result.screenshot!.body);
    assert.equal(site.hits.filter((hit) => hit.startsWith('/trigger.png')).length, hits + 2, 'rendered twice: once per browser');
    assert.deepEqual(reported, { lost: earlier.lost + 1, crashed: earlier.crashed }, 'reported as a lost browser');
    assert.notEqual(await renderer.getBrowser(), browser);
  });

  test('a page that crashes its renderer is EPAGECRASH, rendered once, and the browser lives on', async () => {
    const browser = await renderer.getBrowser();
    const hits = site.hits.filter((hit) => hit === '/trigger').length;
    const earlier = { ...reported };
    onTrigger = async () => {
      onTrigger = undefined;
      for (const page of await browser.pages()) {
        if (page.url().endsWith('/trigger')) await (await page.createCDPSession()).send('Page.crash').catch(() => undefined);
      }
      await delay(10_000);
    };
    await assert.rejects(render(renderer, `${site.url}/trigger`, 'screenshot', { timeout: 12_000 }), (error: any) => {
      assert.equal(error.code, 'EPAGECRASH');
      assert.equal(error.statusCode, 502);
      assert.match(error.message, /crashed the browser's renderer/);
      return true;
    });
    assert.equal(site.hits.filter((hit) => hit === '/trigger').length, hits + 1, 'not rendered twice');
    assert.deepEqual(reported, { lost: earlier.lost, crashed: earlier.crashed + 1 }, 'reported as a page crash, not a lost browser');
    assert.equal(await renderer.getBrowser(), browser);
    green((await render(renderer, `${site.url}/`, 'screenshot')).screenshot!.body);
  });

  test('a renderer killed from outside (the OOM killer, an operator) is not the page\'s crash: retried in a fresh context', async () => {
    const browser = await renderer.getBrowser();
    const group = browser.process()!.pid!;
    const hits = site.hits.filter((hit) => hit === '/trigger').length;
    const earlier = { ...reported };
    onTrigger = async () => {
      onTrigger = undefined;
      for (const pid of renderersOf(group)) process.kill(pid, 'SIGKILL');
      await delay(10_000);
    };
    // Two whole renders, the second in a fresh renderer: more time than the tests above that render once.
    const result = await render(renderer, `${site.url}/trigger`, 'screenshot', { timeout: 20_000 });
    green(result.screenshot!.body);
    assert.equal(site.hits.filter((hit) => hit === '/trigger').length, hits + 2, 'rendered again after the kill');
    assert.deepEqual(reported, { lost: earlier.lost + 1, crashed: earlier.crashed }, 'reported as ours, not as a page crash');
    assert.equal(await renderer.getBrowser(), browser, 'the browser lives on');
  });
});

/** The renderer processes of the browser whose process group is `group` (puppeteer starts it as a group leader). */
function renderersOf(group: number): number[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,pgid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, pgid, ...args]) => Number(pgid) === group && args.includes('--type=renderer'))
    .map(([pid]) => Number(pid));
}

describe('the health probe', () => {
  test('asks the browser itself each time: a frozen browser fails it in PROBE_TIMEOUT_MS and is killed after UNHEALTHY_LIMIT', { timeout: 30_000 }, async () => {
    const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1' });
    const host = new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs: TEST_ARGS });
    const browser = await host.getBrowser();
    const pid = browser.process()!.pid!;
    try {
      // Puppeteer answers version() from a cache after its first call: a probe built on it would pass below.
      await browser.version();
      assert.equal(await host.probe(browser), true);
      assert.equal(await host.probe(browser), true, 'a second probe on the same browser answers too');
      process.kill(pid, 'SIGSTOP');
      assert.match(await browser.version(), /Chrom/, 'version() still answers, from its cache');
      for (let failed = 1; failed <= UNHEALTHY_LIMIT; failed++) {
        const started = performance.now();
        assert.equal(await host.probe(browser), false, `probe ${failed} of a frozen browser`);
        const took = performance.now() - started;
        assert.ok(took >= PROBE_TIMEOUT_MS - 50 && took < PROBE_TIMEOUT_MS + 2000, `took ${Math.round(took)} ms`);
        if (failed < UNHEALTHY_LIMIT) assert.equal(host.isGone(browser), false, 'one silent probe is not a verdict');
      }
      assert.ok(host.isGone(browser), 'condemned after UNHEALTHY_LIMIT silent probes');
      for (let waited = 0; waited < 3000 && chromiumChildren().has(pid); waited += 50) await delay(50);
      assert.ok(!chromiumChildren().has(pid), 'the frozen browser was killed');
      const fresh = await host.getBrowser();
      assert.notEqual(fresh, browser);
      assert.equal(await host.probe(fresh), true);
    } finally {
      for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
        try {
          process.kill(pid, signal);
        } catch {
          // Already gone: the host killed it.
        }
      }
      await host.shutdown();
    }
  });
  test('a browser that answers while a page is slow to open is probed every couple of seconds, not flooded', { timeout: 30_000 }, async () => {
    const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1' });
    const host = new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs: TEST_ARGS });
    const browser = await host.getBrowser();
    let probes = 0;
    const probe = host.probe.bind(host);
    host.probe = (target) => {
      probes += 1;
      return probe(target);
    };
    // The context takes 5 s to open while the browser itself answers at once: slow, not wedged.
    const open = browser.createBrowserContext.bind(browser);
    browser.createBrowserContext = async (options) => {
      await delay(5_000);
      return open(options);
    };
    try {
      const title = await withPage({ host, policy: config.policy, maxBodyBytes: config.maxBodyBytes, guess: localGuess }, new Budget(15_000), { ...PLAIN_SETUP, offline: true }, async ({ page }) => {
        await page.setContent('<title>opened</title>');
        return page.title();
      });
      assert.equal(title, 'opened');
      assert.ok(probes >= 1 && probes <= 3, `${probes} probes in 5 s`);
      assert.equal(await host.getBrowser(), browser, 'a browser that answers is kept');
    } finally {
      await host.shutdown();
    }
  });
});

describe('admission', () => {
  let renderer: Renderer;
  before(async () => void (renderer = await testRenderer()));
  after(async () => {
    releaseHeld();
    await renderer.close();
  });

  test('a full line answers EBUSY in under 100 ms, with retry-after; the admitted all finish', { timeout: 60_000 }, async () => {
    await render(renderer, `${site.url}/`, 'screenshot');
    // 2 rendering + 8 waiting fill the line.
    const admitted = Array.from({ length: 10 }, (_, n) => render(renderer, `${site.url}/held?${n}`, 'screenshot', { timeout: 40_000 }));
    while (held.length < 2) await delay(20);
    const started = performance.now();
    const error = await render(renderer, `${site.url}/`, 'screenshot').then(
      () => assert.fail('expected EBUSY'),
      (rejection: unknown) => rejection,
    );
    assert.ok(performance.now() - started < 100, `took ${performance.now() - started} ms`);
    assert.equal((error as GlanceError).code, 'EBUSY');
    assert.doesNotMatch((error as Error).message, /timeout/);
    const response = errorResponse(error, { requestId: 'r', docsUrl: 'd', target: undefined });
    assert.equal(response.statusCode, 503);
    assert.equal(response.headers['retry-after'], '2');
    const releasing = setInterval(releaseHeld, 20);
    try {
      assert.equal((await Promise.all(admitted)).filter((result) => result.screenshot).length, 10);
    } finally {
      clearInterval(releasing);
    }
  });

  test('a budget that cannot cover a render is EBUSY at once', async () => {
    const started = performance.now();
    assert.equal(await codeOf(render(renderer, `${site.url}/`, 'screenshot', { timeout: 1000 })), 'EBUSY');
    assert.ok(performance.now() - started < 100);
  });
});

describe('recycling and shutdown', () => {
  test('after GLANCE_BROWSER_MAX_PAGES pages a new browser serves, without failing the pages in flight', { timeout: 40_000 }, async () => {
    const renderer = await testRenderer('127.0.0.1', undefined, { GLANCE_BROWSER_MAX_PAGES: '2' });
    try {
      const first: Browser = await renderer.getBrowser();
      const oldPid = first.process()!.pid!;
      const short = render(renderer, `${site.url}/slow?ms=300`, 'screenshot');
      // Held until the new browser has served: a page answered after a fixed 3 s could be done first on a loaded
      // machine (a second Chromium's launch alone can take that), and its browser closed with it.
      const long = render(renderer, `${site.url}/held?long`, 'screenshot', { timeout: 30_000 });
      // `short` frees its slot; the next page goes to a new browser while `long` is still on the old one.
      await short;
      const next = await render(renderer, `${site.url}/`, 'screenshot');
      green(next.screenshot!.body);
      const second = await renderer.getBrowser();
      assert.notEqual(second, first);
      assert.ok(first.connected, 'the old browser still serves its page in flight');
      releaseHeld();
      green((await long).screenshot!.body);
      for (let waited = 0; waited < 3000 && chromiumChildren().has(oldPid); waited += 50) await delay(50);
      assert.ok(!chromiumChildren().has(oldPid), 'the retired browser closed after its last page');
      assert.ok(second.connected);
    } finally {
      releaseHeld();
      await renderer.close();
    }
  });

  test('after shutdown begins nothing is launched, new renders are EBUSY, and the render in flight finishes', { timeout: 30_000 }, async () => {
    const renderer = await testRenderer();
    const pid = await pidOf(renderer);
    const inFlight = render(renderer, `${site.url}/slow?ms=1500`, 'screenshot');
    // Admitted and loading when the shutdown begins (a fixed pause could end before a loaded machine admits it).
    for (let waited = 0; waited < 10_000 && !site.hits.includes('/slow?ms=1500'); waited += 20) await delay(20);
    const closing = renderer.close();
    await assert.rejects(render(renderer, `${site.url}/`, 'screenshot'), (error: any) => {
      assert.equal(error.code, 'EBUSY');
      assert.match(error.message, /shutting down/);
      return true;
    });
    const seen = new Set<number>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const child of chromiumChildren()) seen.add(child);
        await delay(50);
      }
    })();
    try {
      green((await inFlight).screenshot!.body);
      await closing;
    } finally {
      // Stopped on a failure too, which would otherwise hold the test file open past its timeout.
      watching = false;
      await watch;
    }
    assert.deepEqual([...seen].filter((child) => child !== pid), [], 'no browser launched after shutdown began');
    assert.ok(!chromiumChildren().has(pid), 'the browser is closed');
    assert.equal(await codeOf(renderer.getBrowser()), 'EBUSY');
  });
});

describe('killing the host (its worker is about to be ended, and nobody would reap its browsers after)', () => {
  const hostOf = (env: Record<string, string> = {}) => {
    const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', ...env });
    return new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs: TEST_ARGS });
  };
  const newChildren = (before: Set<number>) => [...chromiumChildren()].filter((pid) => !before.has(pid));

  test('a dedicated browser still being launched (single-process mode) is ended and reaped before kill() resolves', { timeout: 30_000 }, async () => {
    const before = chromiumChildren();
    const host = hostOf({ GLANCE_CHROMIUM_MODE: 'single' });
    // Its page's proxy: the browser is only launched with it here, never asked to load anything.
    const leasing = host.lease('http://127.0.0.1:9');
    await host.kill();
    assert.deepEqual(newChildren(before), [], 'no browser of it left, not even unreaped');
    assert.equal(await codeOf(leasing), 'EBUSY');
    assert.equal(await codeOf(host.lease('http://127.0.0.1:9')), 'EBUSY', 'and none launched after');
  });

  test('a browser that is closing, and would not answer its close, is ended and reaped too', { timeout: 30_000 }, async () => {
    const before = chromiumChildren();
    const host = hostOf();
    const browser = await host.getBrowser();
    // Its close is never answered: the host would wait BROWSER_CLOSE_MS before it ends the process itself.
    browser.close = () => new Promise<void>(() => undefined);
    const closing = host.closeBrowser();
    // The next browser is the current one now: the closing one is only closing.
    assert.notEqual(await host.getBrowser(), browser);
    await host.kill();
    assert.deepEqual(newChildren(before), []);
    await closing;
  });
});
