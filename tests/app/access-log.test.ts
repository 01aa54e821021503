/** One structured access record per answered request, with what an operator needs and none of the caller's secrets. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createApp, type App } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import type { AccessRecord } from '../../lib/http/access-log.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';

describe('access records', () => {
  let site: TestServer;
  let app: App;
  const records: AccessRecord[] = [];
  before(async () => {
    site = await startServer({ '/': html('<title>logged</title>') });
    app = createApp(loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off' }), {
      cacheStore: null,
      onAnswered: (record) => void records.push(record),
    });
  });
  after(async () => {
    await app.close();
    await site.close();
  });

  const ask = (query: string, headers: Record<string, string> = {}, requestId = 'req-1') =>
    app.handle({ method: 'GET', rawQueryString: query, headers, requestId, clientAddress: '203.0.113.9', receivedAt: Date.now() });

  test('a success: id, status, fetch mode, the target origin and the spans', async () => {
    records.length = 0;
    const response = await ask(q(`${site.url}/?token=s3cret`), { 'x-api-header-cookie': 'session=hunter2', 'x-api-key': 'k3y' });
    assert.equal(response.statusCode, 200);
    assert.equal(records.length, 1);
    const [record] = records;
    assert.equal(record!.requestId, 'req-1');
    assert.equal(record!.status, 200);
    assert.equal(record!.code, undefined);
    assert.equal(record!.fetchMode, 'fetch');
    assert.equal(record!.target, site.url);
    assert.ok(record!.totalMs >= 0);
    assert.ok(Object.keys(record!.timings).length > 0, 'spans are recorded');
    assert.equal(record!.client, '203.0.113.9', 'the caller\'s address');
    // sha256('k3y'): the key named without being written down.
    assert.equal(record!.keyId, createHash('sha256').update('k3y').digest('hex').slice(0, 12));
    const line = JSON.stringify(record);
    for (const secret of ['s3cret', 'hunter2', 'k3y', 'token=']) assert.ok(!line.includes(secret), `${secret} is not logged`);
  });

  test('a failure carries its code', async () => {
    records.length = 0;
    await ask('url=file%3A%2F%2F%2Fetc%2Fpasswd', {}, 'req-2');
    assert.deepEqual([records[0]!.requestId, records[0]!.status, records[0]!.code, records[0]!.target], ['req-2', 400, 'EINVALURL', undefined]);
    assert.equal(records[0]!.keyId, undefined, 'no key, no key id');
  });
});
