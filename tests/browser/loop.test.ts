/**
 * Loop refusal inside the browser (lib/guard/loop.ts): a page's requests to the service's own public address are
 * refused by the guarded proxy without a connection, whatever kind of request names it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Renderer } from '../../lib/browser/index.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { render, testRenderer } from './helpers.ts';

describe("the service's own address inside the browser", () => {
  let site: TestServer;
  let own: TestServer;
  let renderer: Renderer;
  before(async () => {
    own = await startServer();
    site = await startServer();
    site.route(
      '/page',
      html(`<title>self</title><img src="${own.url}/?url=x&embed=image.url"><iframe src="${own.url}/frame"></iframe>
<script>fetch('${own.url}/?url=y').catch(() => {})</script>`),
    );
    renderer = await testRenderer('127.0.0.1', undefined, { GLANCE_PUBLIC_URL: own.url });
  });
  after(async () => {
    await renderer.close();
    await Promise.all([site.close(), own.close()]);
  });

  test('images, frames and fetches naming Glance itself are refused before any request', { timeout: 30_000 }, async () => {
    const result = await render(renderer, `${site.url}/page`, 'adblock=false', { capture: { html: true } });
    assert.match(result.html ?? '', /<title>self<\/title>/);
    assert.deepEqual(own.hits, [], 'nothing reached the service');
    assert.ok(result.refused.some((target) => target.startsWith(own.url)), JSON.stringify(result.refused));
  });
});
