/** Optional API keys: open without configuration; with keys, `x-api-key` is required (docs/CONTRACT.md §3 EAUTH). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

describe('API keys', () => {
  let site: TestServer;
  let keyed: Service;
  let open: Service;
  before(async () => {
    site = await startServer({ '/': html('<title>keyed</title>') });
    keyed = await startApp({ env: { GLANCE_API_KEYS: 'first-key, second-key' } });
    open = await startApp();
  });
  after(async () => {
    await Promise.all([keyed.close(), open.close()]);
    await site.close();
  });

  test('without configuration the API is open', async () => {
    assert.equal((await open.json(q(`${site.url}/`))).status, 200);
  });

  test('a missing or wrong key is EAUTH 401 and nothing is fetched', async () => {
    const hits = site.hits.length;
    for (const headers of [{}, { 'x-api-key': 'nope' }, { 'x-api-key': 'first-key-but-longer' }] as Array<Record<string, string>>) {
      const { status, body } = await keyed.json(q(`${site.url}/`), { headers });
      assert.equal(status, 401);
      assert.equal(body.code, 'EAUTH');
      assert.equal(body.status, 'fail');
    }
    assert.equal(site.hits.length, hits);
  });

  test('any configured key is accepted', async () => {
    for (const key of ['first-key', 'second-key']) {
      const { status, body } = await keyed.json(q(`${site.url}/`), { headers: { 'x-api-key': key } });
      assert.equal(status, 200);
      assert.equal(body.data.title, 'keyed');
    }
  });
});
