/**
 * GLANCE_CHROMIUM_MODE=single: Chromium with `--single-process`, where only the default context works, so each
 * page gets a browser of its own. Checked here with Debian's Chromium; the simulated Lambda runs the layer's
 * (tests/stacks/bundle.ts). What must hold: pages render, the address rules still apply through the page's proxy,
 * nothing a page stores reaches the next one, a crash ends only its page (a kill from outside is not the page's
 * crash), and no browser outlives its page.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createRenderer, type Renderer } from '../../lib/browser/index.ts';
import { loadConfig } from '../../lib/config.ts';
import { WorkPool } from '../../lib/work/pool.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { chromiumChildren, codeOf, pixel, png, render, stateRoutes, TEST_ARGS, testRenderer } from './helpers.ts';

const GREEN = '<!doctype html><title>ok</title><style>body{margin:0;background:rgb(0,128,0)}</style>';

/** Waits for this process's Chromium children to be gone (a page's browser closes just after its answer). */
async function noChromiumLeft(): Promise<Set<number>> {
  for (let i = 0; i < 40 && chromiumChildren().size > 0; i++) await sleep(100);
  return chromiumChildren();
}

describe('single-process mode', () => {
  let site: TestServer;
  let renderer: Renderer;
  /** What the renderers reported (the Lambda handler counts these as browser_lost and page_crash). */
  const reported = { lost: 0, crashed: 0 };
  let onTrigger: (() => Promise<void>) | undefined;
  before(async () => {
    site = await startServer({
      '/': html(GREEN),
      ...stateRoutes(GREEN),
      '/private-image': html(`${GREEN}<img src="http://10.0.0.1/pixel.png">`),
      // A page whose image tells the test the page is loaded and committed (so the test can act on it).
      '/trigger': html(`${GREEN}<img src="/trigger.png">`),
      '/trigger.png': async () => {
        await onTrigger?.();
      },
      '/hog': html('<script>const kept = []; for (;;) kept.push(new Array(1e6).fill(1));</script>'),
    });
    // No spare browser waiting beside the page's (tests/browser/spare.test.ts has that): each page's is its only one.
    renderer = await testRenderer('127.0.0.1', undefined, { GLANCE_CHROMIUM_MODE: 'single', GLANCE_BROWSER_SPARE: 'false' }, {
      browserLost: () => reported.lost++,
      pageCrashed: () => reported.crashed++,
    });
    // As the service does at start-up (functions/local.ts): the adblock engine's first build (seconds of CPU on a busy
    // machine) is not on the clock of whichever test runs first.
    await renderer.prepare();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  test('renders a page, and closes its browser after it', async () => {
    const result = await render(renderer, `${site.url}/`, 'screenshot');
    assert.deepEqual(pixel(png(result.screenshot!.body), 10, 10), [0, 128, 0, 255]);
    assert.equal(result.timings.launch, undefined, 'the launch is part of opening the page');
    assert.deepEqual([...(await noChromiumLeft())], []);
  });

  test("in Lambda the page's browser is closed before the answer: nothing is left to resume after a freeze", async () => {
    await noChromiumLeft();
    const lambda = await testRenderer('127.0.0.1', undefined, { GLANCE_CHROMIUM_MODE: 'single', GLANCE_BROWSER_SPARE: 'false', AWS_LAMBDA_FUNCTION_NAME: 'glance-test' });
    try {
      const result = await render(lambda, `${site.url}/`, 'screenshot');
      assert.ok(result.screenshot);
      assert.deepEqual([...chromiumChildren()], [], 'no Chromium process when the answer is handed back');
    } finally {
      await lambda.close();
    }
  });

  test('nothing a page stores (cookies, local storage) reaches the next page', async () => {
    await render(renderer, `${site.url}/store`, '', { capture: { html: true } });
    const result = await render(renderer, `${site.url}/read`, '', { capture: { html: true } });
    assert.match(result.html ?? '', /<p id="cookie">none<\/p>/);
    assert.match(result.html ?? '', /<p id="storage">none<\/p>/);
  });

  test("the page's requests go through its guarded proxy: a private address is refused", async () => {
    const result = await render(renderer, `${site.url}/private-image`, 'screenshot');
    assert.ok(result.screenshot);
    assert.deepEqual(result.refused, ['http://10.0.0.1/pixel.png']);
  });

  // SIGKILL only: a SIGTERM'd Chromium first closes its page, which navigation meets before the browser is gone.
  for (const signal of ['SIGKILL'] as const) {
    test(`a browser ended from outside (${signal}: the OOM killer, an operator) under its page is ours: rendered again on a fresh browser, not EPAGECRASH`, async () => {
      // The browsers of the pages before, which close after their answers, gone first: only this page's is counted.
      await renderer.warm();
      assert.deepEqual([...chromiumChildren()], [], 'the earlier pages\' browsers are closed');
      const hits = site.hits.filter((hit) => hit === '/trigger').length;
      const earlier = { ...reported };
      onTrigger = async () => {
        onTrigger = undefined;
        const launched = chromiumChildren();
        assert.equal(launched.size, 1, 'one browser, for the one page');
        const [pid] = launched;
        assert.ok(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--single-process'), 'launched with --single-process');
        process.kill(pid!, signal);
        await sleep(10_000);
      };
      // Two whole renders, the second on a fresh browser.
      const result = await render(renderer, `${site.url}/trigger`, 'screenshot', { timeout: 20_000 });
      assert.deepEqual(pixel(png(result.screenshot!.body), 10, 10), [0, 128, 0, 255]);
      assert.equal(site.hits.filter((hit) => hit === '/trigger').length, hits + 2, 'rendered again after the kill');
      assert.deepEqual(reported, { lost: earlier.lost + 1, crashed: earlier.crashed }, 'reported as ours, not as a page crash');
    });
  }

  test('a page that crashes its browser (V8 out of memory under the heap cap) fails alone: EPAGECRASH, not retried; the next page renders', async () => {
    await noChromiumLeft();
    // A small heap cap (the last --js-flags wins) brings the page's out-of-memory crash within a second or two.
    const capped = createRenderer({
      config: loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CHROMIUM_MODE: 'single', GLANCE_BROWSER_SPARE: 'false' }),
      work: new WorkPool({ size: 1 }),
      extraArgs: [...TEST_ARGS, '--js-flags=--max-old-space-size=32'],
      events: { browserLost: () => reported.lost++, pageCrashed: () => reported.crashed++ },
    });
    const earlier = { ...reported };
    const hits = site.hits.filter((hit) => hit === '/hog').length;
    try {
      assert.equal(await codeOf(render(capped, `${site.url}/hog`, 'screenshot&adblock=false', { timeout: 20_000 })), 'EPAGECRASH');
      assert.equal(site.hits.filter((hit) => hit === '/hog').length, hits + 1, 'not rendered twice');
      assert.deepEqual(reported, { lost: earlier.lost, crashed: earlier.crashed + 1 });
      const again = await render(capped, `${site.url}/`, 'screenshot&adblock=false');
      assert.deepEqual(pixel(png(again.screenshot!.body), 10, 10), [0, 128, 0, 255]);
    } finally {
      await capped.close();
    }
  });

  test('two pages at once get two browsers, and both finish', async () => {
    const results = await Promise.all([1, 2].map(() => render(renderer, `${site.url}/`, 'screenshot')));
    assert.equal(results.filter((result) => result.screenshot).length, 2);
    assert.deepEqual([...(await noChromiumLeft())], []);
  });
});
