/**
 * `insights.lighthouse` end to end: a Lighthouse report of a page on 127.0.0.1 run on Glance's Chromium, with only
 * the categories asked for, as JSON or HTML; invalid options refused; and the address rules still holding for every
 * request the audit makes. The page at `public.test` (the one exempt name, resolved to this machine) points
 * requests at 127.0.0.1, which is not exempt: the server must never see them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Resolver } from '../../lib/guard/lookup.ts';
import { LIGHTHOUSE_CATEGORIES } from '../../lib/query/options.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Audited</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="A page to audit.">
</head><body><h1>Audited</h1><p>${'Some text to paint. '.repeat(20)}</p></body></html>`;

const publicHere: Resolver = async (hostname) => {
  if (hostname === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

const privateRequests = (port: number) => `<!doctype html><html lang="en"><head><title>Public page</title>
<link rel="stylesheet" href="http://127.0.0.1:${port}/private-css"></head>
<body><h1>Public page</h1><img src="http://127.0.0.1:${port}/private-img.png" alt="">
<script>fetch('http://127.0.0.1:${port}/private-fetch').catch(() => {});</script></body></html>`;

describe('insights.lighthouse', () => {
  let site: TestServer;
  let app: Service;
  let guarded: Service;
  before(async () => {
    site = await startServer({ '/': html(PAGE) });
    site.route('/public', html(privateRequests(site.port)));
    // A page whose load never ends: an image that is never answered.
    // Paints, then holds its main thread for 8 s (and its image never loads): no report can be written in 5 s on
    // any machine, and the page recovers afterwards so the abandoned audit can settle.
    site.route('/hanging', html('<!doctype html><title>Hanging</title><p>Hanging</p><img src="/never.png" alt="">' +
      '<script>requestAnimationFrame(() => setTimeout(() => { const end = Date.now() + 8000; while (Date.now() < end); }, 50));</script>'));
    site.route('/never.png', () => undefined);
    // The package's first import takes seconds on a busy machine; it is measured in bench/lighthouse.ts, not here.
    await import('lighthouse');
    // Lighthouse's worker, its import there and its browser are started before any test's clock (as the local service
    // does at start-up): on a loaded machine they took the first report past its 25 s budget.
    app = await startApp({ prepared: true });
    guarded = await startApp({ allowHosts: 'public.test', resolver: publicHere });
  });
  after(async () => {
    await Promise.all([app.close(), guarded.close()]);
    await site.close();
  });

  test('a JSON report (the Lighthouse result) with only the categories asked for, beside nothing else', async () => {
    const { status, body, headers } = await app.json(
      q(`${site.url}/`, 'meta=false&insights.technologies=false&insights.lighthouse.onlyCategories=seo,accessibility'),
    );
    assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
    const report = body.data.insights.lighthouse;
    assert.deepEqual(Object.keys(body.data.insights), ['lighthouse']);
    assert.match(report.lighthouseVersion, /^\d+\.\d+\.\d+$/);
    assert.equal(report.finalDisplayedUrl, `${site.url}/`);
    assert.equal(report.runtimeError, undefined, JSON.stringify(report.runtimeError));
    assert.deepEqual(Object.keys(report.categories).sort(), ['accessibility', 'seo']);
    assert.ok(report.categories.seo.score > 0.5, `seo score ${report.categories.seo.score}`);
    assert.equal(report.audits['document-title'].score, 1);
    // The default device is a desktop: the report says so, with the device's screen.
    assert.equal(report.configSettings.formFactor, 'desktop');
    assert.equal(report.configSettings.screenEmulation.width, 1280);
    assert.match(headers.get('server-timing') ?? '', /lighthouse;dur=/);
  });

  test('output=html answers the self-contained HTML report; technologies come beside it unless turned off', async () => {
    const { status, body } = await app.json(q(`${site.url}/`, 'meta=false&insights.lighthouse.output=html&insights.lighthouse.onlyCategories=seo'));
    assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
    const report = body.data.insights.lighthouse;
    assert.equal(typeof report, 'string');
    assert.match(report.slice(0, 300), /<!doctype html>/i);
    assert.ok(report.includes('__LIGHTHOUSE_JSON__'), 'the report carries its result for the renderer');
    assert.ok(Array.isArray(body.data.insights.technologies));
  });

  test('invalid options are refused before any work, naming the option', async () => {
    for (const [query, name] of [
      ['insights.lighthouse.output=pdf', 'insights.lighthouse.output'],
      ['insights.lighthouse.preset=watch', 'insights.lighthouse.preset'],
      ['insights.lighthouse.onlyCategories=pwa', 'insights.lighthouse.onlyCategories'],
      ['insights.lighthouse.budget=1', 'insights.lighthouse.budget'],
    ] as const) {
      const { status, body } = await app.json(q(`${site.url}/`, query));
      assert.equal(status, 400, query);
      assert.equal(body.code, 'EINVALQUERY');
      assert.ok(body.message.includes(`\`${name}\``), body.message);
    }
  });

  test("the audit's requests go through the address guard: private addresses the page names are never reached", async () => {
    const before = site.hits.length;
    const { status, body } = await guarded.json(
      q(`http://public.test:${site.port}/public`, 'meta=false&insights.technologies=false&insights.lighthouse.onlyCategories=best-practices,seo'),
    );
    assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
    assert.equal(body.data.insights.lighthouse.finalDisplayedUrl, `http://public.test:${site.port}/public`);
    const hits = site.hits.slice(before);
    assert.ok(hits.includes('/public'), `the page itself was loaded: ${hits}`);
    // Chromium cannot resolve public.test itself (tests/helpers/chromium-args.ts): only the guarded proxy can, so
    // Lighthouse's own robots.txt fetch arriving proves it went through the proxy too.
    assert.ok(hits.includes('/robots.txt'), `Lighthouse's robots.txt fetch: ${hits}`);
    assert.deepEqual(hits.filter((hit) => hit.startsWith('/private')), [], 'a private request reached the server');
  });

  test('a report that cannot finish within its budget is ETIMEOUT; the abandoned audit ends quietly and the next one runs', async () => {
    // Closing a page under a running audit makes Lighthouse's own protocol calls reject unhandled, which would end
    // a real process: the page must stay open until the audit has settled.
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      // The browser is running already, so the request's short budget is the report's alone.
      assert.equal((await app.json(q(`${site.url}/`, 'meta=false&screenshot'))).status, 200);
      const { status, body } = await app.json(q(`${site.url}/hanging`, 'meta=false&insights.technologies=false&insights.lighthouse&timeout=5s'));
      assert.equal(status, 504, JSON.stringify(body).slice(0, 500));
      assert.equal(body.code, 'ETIMEOUT');
      assert.match(body.message, /Lighthouse/);
      // One report at a time: this one starts once the abandoned one has settled and its page has closed.
      const next = await app.json(q(`${site.url}/`, 'meta=false&insights.technologies=false&insights.lighthouse.onlyCategories=seo&force'));
      assert.equal(next.status, 200, JSON.stringify(next.body).slice(0, 500));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(unhandled.map(String), []);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  test('the categories Glance accepts are those of the Lighthouse it ships', async () => {
    const { defaultConfig } = await import('lighthouse');
    assert.deepEqual([...LIGHTHOUSE_CATEGORIES].sort(), Object.keys(defaultConfig.categories ?? {}).sort());
  });

  test('a private target is refused before Lighthouse runs', async () => {
    const before = site.hits.length;
    const { status, body } = await guarded.json(q(`${site.url}/`, 'meta=false&insights.lighthouse'));
    assert.equal(status, 403);
    assert.equal(body.code, 'EFORBIDDENURL');
    assert.equal(site.hits.length, before);
  });
});
