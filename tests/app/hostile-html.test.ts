/**
 * A hostile page costs its own request a bounded time and everyone else almost nothing: 300 000 nested `<div>`
 * (3.3 MB; 127 s of quadratic parsing before lib/extract/parse.ts) answer within their `timeout`, and a tiny
 * request sent meanwhile is answered in well under a second.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nestedDivs } from '../../bench/lib/hostile.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

describe('hostile HTML through the app', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    const text = `<p>${'Visible words in a server-rendered page. '.repeat(8)}</p>`;
    site = await startServer({
      '/deep': html(nestedDivs(300_000)),
      // Repeated unclosed script openings after real text: the client-shell check once spent 20 s here.
      '/scripts': html(`<title>scripts</title><body>${text}${'<script '.repeat(40_000)}</body>`),
      '/tiny': html('<title>tiny</title>'),
    });
    service = await startService();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  for (const path of ['/deep', '/scripts']) {
    test(`${path} answers within its timeout while a tiny request is answered in under 1 s`, async () => {
      const started = performance.now();
      const hostile = service.json(q(`${site.url}${path}`, 'timeout=5s&force=true'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const tinyStart = performance.now();
      const tiny = await service.json(q(`${site.url}/tiny`, 'force=true'));
      const tinyMs = performance.now() - tinyStart;
      const { status, body } = await hostile;
      const hostileMs = performance.now() - started;
      assert.equal(tiny.status, 200);
      assert.equal(tiny.body.data.title, 'tiny');
      assert.ok(tinyMs < 1000, `tiny request took ${tinyMs.toFixed(0)} ms`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.ok(hostileMs < 5000, `${path} took ${hostileMs.toFixed(0)} ms`);
    });
  }
});
