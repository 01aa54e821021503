/** The core's events, which the Lambda handler turns into metrics (cache_hit, feature_embed...): what each answer reports. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AppEvents } from '../../lib/app.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

type Answered = Parameters<NonNullable<AppEvents['answered']>>[0];

let site: TestServer;
let service: Service;
const answered: Answered[] = [];

before(async () => {
  site = await startServer({ '/': html('<title>Counted</title>') });
  service = await startApp({ events: { answered: (event) => void answered.push(event) } });
});
after(async () => {
  await service.close();
  await site.close();
});

test('each answered request reports its cache status and the costly features it asked for', async () => {
  await service.request(q(`${site.url}/`));
  await service.request(q(`${site.url}/`));
  await service.request(q(`${site.url}/`, 'embed=title&video=true&force=true'));
  assert.deepEqual(answered.splice(0), [
    { cache: 'MISS', features: [] },
    { cache: 'HIT', features: [] },
    { cache: 'BYPASS', features: ['embed', 'video'] },
  ]);
});

test('refused requests and preflights are not answers to count', async () => {
  assert.equal((await service.request('url=ftp%3A%2F%2Fexample.com')).status, 400);
  await service.request('', { method: 'OPTIONS' });
  assert.deepEqual(answered, []);
});
