/**
 * `insights.lighthouse` end to end: a Lighthouse report of a page on 127.0.0.1 run on Glance's Chromium (with
 * `insights=true` as with it by name), with the categories and audits asked for, as JSON or HTML; invalid and
 * withheld settings refused by name; and the address rules still holding for every request the audit makes. The page at `public.test` (the one exempt name, resolved to this machine) points
 * requests at 127.0.0.1, which is not exempt: the server must never see them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Resolver } from '../../lib/guard/lookup.ts';
import { LIGHTHOUSE_AUDITS, LIGHTHOUSE_LOCALES } from '../../lib/query/lighthouse-names.ts';
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

  test('insights=true: the technologies and a JSON report (the Lighthouse result) of the categories asked for, less the audits skipped', async () => {
    const { status, body, headers } = await app.json(
      q(`${site.url}/`, 'meta=false&insights=true&insights.lighthouse.onlyCategories=seo,accessibility&insights.lighthouse.skipAudits=color-contrast'),
    );
    assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
    const report = body.data.insights.lighthouse;
    assert.deepEqual(Object.keys(body.data.insights), ['technologies', 'lighthouse']);
    assert.ok(Array.isArray(body.data.insights.technologies));
    assert.match(report.lighthouseVersion, /^\d+\.\d+\.\d+$/);
    assert.equal(report.finalDisplayedUrl, `${site.url}/`);
    assert.equal(report.runtimeError, undefined, JSON.stringify(report.runtimeError));
    assert.deepEqual(Object.keys(report.categories).sort(), ['accessibility', 'seo']);
    assert.ok(report.categories.seo.score > 0.5, `seo score ${report.categories.seo.score}`);
    assert.equal(report.audits['document-title'].score, 1);
    assert.equal(report.audits['image-alt'].id, 'image-alt');
    assert.equal(report.audits['color-contrast'], undefined, 'a skipped audit is not in the report');
    assert.deepEqual(report.configSettings.skipAudits, ['color-contrast']);
    // The default device is a desktop: the report says so, with the device's screen.
    assert.equal(report.configSettings.formFactor, 'desktop');
    assert.equal(report.configSettings.screenEmulation.width, 1280);
    assert.match(headers.get('server-timing') ?? '', /lighthouse;dur=/);
  });

  test('output=html answers the self-contained HTML report, alone when the technologies are turned off', async () => {
    const { status, body } = await app.json(
      q(`${site.url}/`, 'meta=false&insights.technologies=false&insights.lighthouse.output=html&insights.lighthouse.onlyCategories=seo'),
    );
    assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
    const report = body.data.insights.lighthouse;
    assert.deepEqual(Object.keys(body.data.insights), ['lighthouse']);
    assert.equal(typeof report, 'string');
    assert.match(report.slice(0, 300), /<!doctype html>/i);
    assert.ok(report.includes('__LIGHTHOUSE_JSON__'), 'the report carries its result for the renderer');
  });

  test('onlyAudits runs those audits alone, in the categories they belong to', async () => {
    const { status, body } = await app.json(
      q(`${site.url}/`, 'meta=false&insights.lighthouse=true&insights.technologies=false&insights.lighthouse.only_audits=document-title,meta-description'),
    );
    assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
    const report = body.data.insights.lighthouse;
    assert.deepEqual(Object.keys(report.audits).sort(), ['document-title', 'meta-description']);
    assert.deepEqual(Object.keys(report.categories).sort(), ['accessibility', 'seo']);
    assert.equal(report.audits['meta-description'].score, 1);
  });

  test('invalid options, unknown keys and the Lighthouse settings Glance withholds are refused before any work, by name', async () => {
    const before = site.hits.length;
    for (const [query, name, code] of [
      ['insights.lighthouse.output=pdf', 'insights.lighthouse.output', 'EINVALQUERY'],
      ['insights.lighthouse.preset=watch', 'insights.lighthouse.preset', 'EINVALQUERY'],
      ['insights.lighthouse.onlyCategories=pwa', 'insights.lighthouse.onlyCategories', 'EINVALQUERY'],
      ['insights.lighthouse.onlyAudits=document-title,no-such-audit', 'insights.lighthouse.onlyAudits', 'EINVALQUERY'],
      ['insights.lighthouse.budget=1', 'insights.lighthouse.budget', 'EINVALQUERY'],
      ['insights&insights.lighthouse.hostname=127.0.0.1', 'insights.lighthouse.hostname', 'EUNSUPPORTED'],
      ['insights.lighthouse.blankPage=http://127.0.0.1/', 'insights.lighthouse.blankPage', 'EUNSUPPORTED'],
    ] as const) {
      const { status, body } = await app.json(q(`${site.url}/`, query));
      assert.equal(status, 400, query);
      assert.equal(body.code, code, query);
      assert.ok(body.message.includes(`\`${name}\``), body.message);
    }
    assert.equal(site.hits.length, before, 'the page was never fetched');
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
      // insights=true runs a report too: a page too slow to audit in the budget is a clear ETIMEOUT, never a hang.
      // (prerender=false: the page would otherwise be rendered for its technologies, and time out there first.)
      const { status, body } = await app.json(q(`${site.url}/hanging`, 'meta=false&insights&prerender=false&timeout=5s'));
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

  test('the categories, audits and locales Glance accepts are those of the Lighthouse it ships, in every preset', async () => {
    const { defaultConfig, desktopConfig } = await import('lighthouse');
    const { default: perfConfig } = await import('lighthouse/core/config/perf-config.js');
    const { initializeConfig } = await import('lighthouse/core/config/config.js');
    const { getAvailableLocales } = await import('lighthouse/shared/localization/format.js');
    assert.deepEqual([...LIGHTHOUSE_CATEGORIES].sort(), Object.keys(defaultConfig.categories ?? {}).sort());
    const { resolvedConfig } = await initializeConfig('navigation', defaultConfig);
    assert.deepEqual([...LIGHTHOUSE_AUDITS], (resolvedConfig.audits ?? []).map(({ implementation }) => implementation.meta.id).sort());
    for (const preset of [desktopConfig, perfConfig]) {
      assert.equal(preset.extends, 'lighthouse:default');
      assert.equal(preset.audits, undefined, 'a preset adds no audits of its own');
    }
    assert.deepEqual(LIGHTHOUSE_LOCALES, getAvailableLocales());
  });

  test('a private target is refused before Lighthouse runs', async () => {
    const before = site.hits.length;
    const { status, body } = await guarded.json(q(`${site.url}/`, 'meta=false&insights.lighthouse'));
    assert.equal(status, 403);
    assert.equal(body.code, 'EFORBIDDENURL');
    assert.equal(site.hits.length, before);
  });
});
