/** The result cache end to end through the core (docs/CONTRACT.md §2 ttl/staleTtl/force, §3 x-cache-status). */
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

describe('result cache', () => {
  let site: TestServer;
  let service: Service;
  let version = 0;
  before(async () => {
    site = await startServer({
      '/page': async (_req, res) => {
        // Slow enough that concurrent misses overlap.
        await new Promise((resolve) => setTimeout(resolve, 150));
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>version ${version}</title>`);
      },
    });
    service = await startApp();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  const hitsOf = (path: string) => site.hits.filter((hit) => hit.startsWith(path)).length;

  test('another instance on the same store answers a HIT without fetching (cold Lambdas share work)', async () => {
    const target = `${site.url}/page?shared`;
    await service.request(q(target));
    const cold = await startApp({ cacheDir: service.cacheDir });
    try {
      const again = await cold.request(q(target));
      assert.equal(again.headers.get('x-cache-status'), 'HIT');
      assert.equal(hitsOf('/page?shared'), 1);
    } finally {
      await cold.close();
    }
  });

  test('MISS then HIT with an identical body; order, aliases and defaults do not split the key', async () => {
    const target = `${site.url}/page?a`;
    const first = await service.request(q(target, 'meta.title=true&ttl=1h'));
    const body = await first.text();
    assert.equal(first.headers.get('x-cache-status'), 'MISS');
    for (const query of [
      `ttl=1h&meta.title=true&${q(target)}`,
      q(target, 'meta.title=true&ttl=3600000'),
      q(target, 'meta.title=&ttl=1h&prerender=auto&timeout=28s'),
    ]) {
      const again = await service.request(query);
      assert.equal(again.headers.get('x-cache-status'), 'HIT', query);
      assert.equal(await again.text(), body);
    }
    assert.equal(hitsOf('/page?a'), 1);
  });

  test('force bypasses the cache, regenerates and stores the new answer', async () => {
    const target = `${site.url}/page?b`;
    await service.request(q(target));
    version++;
    const forced = await service.json(q(target, 'force=true'));
    assert.equal(forced.headers.get('x-cache-status'), 'BYPASS');
    assert.equal(forced.body.data.title, `version ${version}`);
    const after = await service.json(q(target));
    assert.equal(after.headers.get('x-cache-status'), 'HIT');
    assert.equal(after.body.data.title, `version ${version}`);
  });

  test('past staleTtl the copy is served at once and refreshed in the background', async () => {
    const target = `${site.url}/page?c`;
    const first = await service.json(q(target, 'staleTtl=0'));
    const old = first.body.data.title;
    version++;
    const stale = await service.json(q(target, 'staleTtl=0'));
    assert.equal(stale.headers.get('x-cache-status'), 'STALE');
    assert.equal(stale.body.data.title, old, 'the stale copy, at once');
    let refreshed = old;
    for (let i = 0; i < 50 && refreshed === old; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      refreshed = (await service.json(q(target, 'staleTtl=0'))).body.data.title;
    }
    assert.equal(refreshed, `version ${version}`);
  });

  test('two concurrent misses of one key fetch the target once', async () => {
    const target = `${site.url}/page?d`;
    const [a, b] = await Promise.all([service.json(q(target)), service.json(q(target))]);
    assert.deepEqual(a.body, b.body);
    assert.equal(hitsOf('/page?d'), 1);
  });

  test('a corrupted or truncated entry is a miss, never served', async () => {
    const target = `${site.url}/page?e`;
    await service.request(q(target));
    const files = (await readdir(service.cacheDir, { recursive: true })).map(String);
    assert.ok(files.length > 0, 'entries are on disk');
    for (const file of files) {
      const path = join(service.cacheDir, file);
      const text = await readFile(path, 'utf8').catch(() => undefined);
      if (text !== undefined) await writeFile(path, text.slice(0, Math.floor(text.length / 2)));
    }
    // A second instance sharing the folder has no copy in memory: it must read the damaged entry and refuse it.
    const cold = await startApp({ cacheDir: service.cacheDir });
    try {
      const again = await cold.json(q(target));
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('x-cache-status'), 'MISS');
      assert.equal(hitsOf('/page?e'), 2);
    } finally {
      await cold.close();
    }
  });

  test('caller errors are not cached; embed answers from the cache too', async () => {
    const bad = await service.request(q(`${site.url}/page?f`, 'ttl=5s'));
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('cache-control'), 'no-store');
    const target = `${site.url}/page?g`;
    const first = await service.request(q(target, 'embed=title'));
    assert.equal(first.headers.get('x-cache-status'), 'MISS');
    const second = await service.request(q(target, 'embed=title'));
    assert.equal(second.headers.get('x-cache-status'), 'HIT');
    assert.equal(await second.text(), await first.text());
  });
});
