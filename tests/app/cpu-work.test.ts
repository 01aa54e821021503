/**
 * CPU work over what a stranger controls, through the app (issue 24): a costly selector is refused by name, work past
 * the request's deadline answers ETIMEOUT within its `timeout` and is not kept for the next caller, deep JSON is no
 * value rather than a crash, Lighthouse runs off this thread, and a broken prebuilt engine is reported at start-up.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { deepJson, siblings } from '../../bench/lib/hostile.ts';
import { createApp } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

/** Technology fingerprints over unclosed `<link href="`, in lines as long as they read: seconds of CPU. */
const costly = Array.from({ length: 200 }, () => '<link href="'.repeat(166)).join('\n');

describe('CPU work on untrusted input, through the app', () => {
  let site: TestServer;
  let app: Service;
  let costlyServed = 0;
  before(async () => {
    site = await startServer({
      '/siblings': html(siblings(20_000)),
      '/deep-json': html(`<title>Deep JSON</title><script type="application/ld+json">${deepJson(100_000)}</script><pre>${deepJson(100_000)}</pre>`),
      '/costly': (_req, res) => {
        costlyServed++;
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Costly</title>${costly}`);
      },
      '/plain': html('<title>Plain</title><p>text</p>'),
    });
    app = await startApp();
  });
  after(async () => {
    await app.close();
    await site.close();
  });

  test('a selector whose cost grows with the square of the page is 400 EINVALDATA naming the rule', async () => {
    const { status, body } = await app.json(q(`${site.url}/siblings`, `data.last.selector=${encodeURIComponent('p:nth-last-child(1000000)')}`));
    assert.equal(status, 400, JSON.stringify(body));
    assert.equal(body.code, 'EINVALDATA');
    assert.match(body.message, /data\.last/);
    assert.ok(body.data['data.last']);
  });

  test('JSON nested 100 000 deep, as JSON-LD and as a rule value: the page is read, the value is null', async () => {
    const { status, body } = await app.json(q(`${site.url}/deep-json`, 'data.j.selector=pre&data.j.attr=json&data.j.type=object'));
    assert.equal(status, 200, JSON.stringify(body).slice(0, 300));
    assert.equal(body.data.title, 'Deep JSON');
    assert.equal(body.data.j, null);
  });

  test('work past the deadline answers ETIMEOUT within the timeout, and the failure is not kept for the next caller', async () => {
    // Warm: the worker and the fingerprints are loaded, so the budget below is the work's alone.
    assert.equal((await app.json(q(`${site.url}/plain`, 'insights.lighthouse=false&meta=false'))).status, 200);
    const started = performance.now();
    const { status, body } = await app.json(q(`${site.url}/costly`, 'insights.lighthouse=false&meta=false&timeout=1500ms'));
    const took = performance.now() - started;
    assert.equal(status, 504, JSON.stringify(body).slice(0, 300));
    assert.equal(body.code, 'ETIMEOUT');
    assert.ok(took < 1500 + 250, `answered after ${Math.round(took)} ms`);
    // A caller with more time gets an attempt of its own (one with no more time gets that failure at once, as a
    // retry of it: lib/cache/result-cache.ts).
    const served = costlyServed;
    const again = await app.json(q(`${site.url}/costly`, 'insights.lighthouse=false&meta=false&timeout=2500ms'));
    assert.equal(again.body.code, 'ETIMEOUT');
    assert.equal(costlyServed, served + 1, 'the second caller got its own attempt, not the first one\'s failure');
  });

  test('a Lighthouse report runs in a worker of its own: this thread never loads Lighthouse', async () => {
    // Synchronous module hooks are the registering thread's own: they see what this thread loads, not the workers.
    const loaded: string[] = [];
    const hooks = registerHooks({
      resolve(specifier, context, next) {
        const resolved = next(specifier, context);
        if (/node_modules[\\/]lighthouse[\\/]/.test(resolved.url)) loaded.push(resolved.url);
        return resolved;
      },
    });
    // Prepared as the local service is, so Lighthouse's import (seconds, in its worker) is not on the report's clock.
    const prepared = await startApp({ prepared: true });
    try {
      const { status, body } = await prepared.json(q(`${site.url}/plain`, 'meta=false&insights.technologies=false&insights.lighthouse.onlyCategories=seo'));
      assert.equal(status, 200, JSON.stringify(body).slice(0, 300));
      assert.equal(body.data.insights.lighthouse.categories.seo.id, 'seo');
      assert.deepEqual(loaded, []);
    } finally {
      hooks.deregister();
      await prepared.close();
    }
  });
});

describe('start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glance-prepare-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a prebuilt adblock engine that cannot be loaded is reported once at start-up, with what to do', async () => {
    const engine = join(dir, 'engine.bin');
    writeFileSync(engine, Buffer.from('not an engine at all'));
    const core = createApp(loadConfig({ GLANCE_ADBLOCK_ENGINE: engine, GLANCE_WORKERS: '1', GLANCE_CACHE: 'off', GLANCE_STORAGE_DIR: dir }));
    try {
      const error = await core.prepare().then(() => undefined, (caught: unknown) => caught as Error);
      assert.ok(error, 'prepare reports the engine');
      assert.match(error.message, /GLANCE_ADBLOCK_ENGINE=.*engine\.bin could not be loaded/);
      assert.match(error.message, /rebuild it/);
    } finally {
      await core.close();
    }
  });
});
