/** The browser's requests as the render step makes them from a query (lib/pipeline/render-request.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VettedUrl } from '../../lib/guard/policy.ts';
import { parseQuery } from '../../lib/query/index.ts';
import { pageSetup, renderRequest, usualPageSetup } from '../../lib/pipeline/render-request.ts';
import { Budget } from '../../lib/time/budget.ts';

const UA = 'GlanceTest/1.0';
const target = new URL('https://example.com/page') as VettedUrl;
const optionsOf = (query: string) => parseQuery(`url=${encodeURIComponent(target.href)}${query ? `&${query}` : ''}`);
const nothing = { html: false, evaluate: [], screenshot: false, pdf: false };

test('the usual page setup is the one a query leaving every option at its default gets, for no origin', async () => {
  const usual = await usualPageSetup(UA);
  assert.deepEqual(usual, { ...(await pageSetup(optionsOf(''), UA, target.origin)), origin: undefined });
  assert.equal(usual.viewport.width, 1280);
  assert.equal(usual.viewport.deviceScaleFactor, 2);
  assert.equal(usual.userAgent, UA);
  assert.equal(usual.reducedMotion, true);
});

test('only the captures the answer shows are asked for, each with its own options', async () => {
  const options = optionsOf('screenshot.type=jpeg&pdf.format=A3');
  const budget = new Budget(5000);
  const none = await renderRequest({ url: target, options, wants: nothing, userAgent: UA, budget });
  assert.deepEqual(none.capture, {});
  const all = await renderRequest({
    url: target,
    options,
    wants: { html: true, evaluate: ['document.title'], screenshot: true, pdf: true },
    userAgent: UA,
    budget,
  });
  assert.equal(all.capture.html, true);
  assert.deepEqual(all.capture.evaluate, ['document.title']);
  assert.equal(all.capture.screenshot?.type, 'jpeg');
  assert.equal(all.capture.pdf?.format, 'A3');
  assert.equal(all.setup.origin, target.origin);
});

test('the page load carries the page actions, and animations=false stops them', async () => {
  const request = await renderRequest({
    url: target,
    options: optionsOf('click=%23a&scroll=%23b&waitForSelector=%23c&adblock=false&waitUntil=load'),
    wants: nothing,
    userAgent: UA,
    budget: new Budget(5000),
  });
  assert.deepEqual(request.load.waitUntil, ['load']);
  assert.equal(request.load.adblock, false);
  assert.equal(request.load.stopAnimations, true);
  assert.deepEqual(request.load.actions.click, ['#a']);
  assert.deepEqual(request.load.actions.scroll, ['#b']);
  assert.equal(request.load.actions.waitForSelector, '#c');
  const moving = await renderRequest({ url: target, options: optionsOf('animations=true'), wants: nothing, userAgent: UA, budget: new Budget(5000) });
  assert.equal(moving.load.stopAnimations, false);
  assert.equal(moving.setup.reducedMotion, false);
});

test("a device's own user agent wins over the configured one; a framed screenshot's large viewport is scaled to fit", async () => {
  const phone = await pageSetup(optionsOf('device=iPhone%2015'), UA);
  assert.match(phone.userAgent, /iPhone/);
  const plain = await pageSetup(optionsOf('screenshot&viewport.width=10000&viewport.height=10000'), UA);
  const framed = await pageSetup(optionsOf('screenshot&viewport.width=10000&viewport.height=10000&screenshot.overlay.browser=dark'), UA);
  assert.ok(framed.viewport.deviceScaleFactor < plain.viewport.deviceScaleFactor);
});
