/** prerender, x-fetch-mode and hostile pages through the core: each a clear error or a bounded capture. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

const SCRIPTED = `<!doctype html><html><head><title>Shell</title><script>
document.addEventListener('DOMContentLoaded', () => {
  document.title = 'Rendered title';
  const meta = document.createElement('meta'); meta.name = 'description'; meta.content = 'Written by script';
  document.head.append(meta);
  document.getElementById('root').textContent = 'app';
});</script></head><body><div id="root"></div></body></html>`;

describe('rendering through the service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/shell': html(SCRIPTED),
      '/static': html('<title>Static</title><meta name="description" content="Server rendered"><script>document.title="changed"</script>'),
      '/never': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<title>Partial</title><p>still loading');
      },
      '/alerts': html('<title>Alerts</title><script>alert(1); confirm("x"); prompt("y");</script><p>content</p>'),
      '/tall': html('<title>Tall</title><div style="height:100000px;background:linear-gradient(red,blue)"></div>'),
    });
    service = await startApp();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('prerender=auto renders an empty client-side shell and says so', async () => {
    const { body, headers } = await service.json(q(`${site.url}/shell`));
    assert.equal(headers.get('x-fetch-mode'), 'prerender');
    assert.equal(body.data.title, 'Rendered title');
    assert.equal(body.data.description, 'Written by script');
  });

  test('prerender=auto keeps a server-rendered page on the fetch path; prerender=false never renders', async () => {
    const auto = await service.json(q(`${site.url}/static`));
    assert.equal(auto.headers.get('x-fetch-mode'), 'fetch');
    assert.equal(auto.body.data.title, 'Static');
    const off = await service.json(q(`${site.url}/shell`, 'prerender=false'));
    assert.equal(off.headers.get('x-fetch-mode'), 'fetch');
    assert.equal(off.body.data.title, 'Shell');
  });

  test('prerender=true renders even a server-rendered page', async () => {
    const { body, headers } = await service.json(q(`${site.url}/static`, 'prerender=true'));
    assert.equal(headers.get('x-fetch-mode'), 'prerender');
    assert.equal(body.data.title, 'changed');
    assert.match(headers.get('server-timing') ?? '', /render;dur=/);
  });

  test('bad screenshot input is a clear error naming the parameter', async () => {
    for (const [query, param] of [
      ['screenshot.type=gif', 'screenshot.type'],
      ['screenshot.element=%23%23bad%5B', 'screenshot.element'],
      ['viewport.width=-5', 'viewport.width'],
      ['device=Nokia%203310&screenshot', 'device'],
    ] as const) {
      const { status, body } = await service.json(q(`${site.url}/static`, query));
      assert.equal(status, 400, `${query}: ${JSON.stringify(body)}`);
      assert.equal(body.code, 'EINVALQUERY', query);
      assert.ok(body.message.includes(param), `${query}: ${body.message}`);
    }
  });

  test('a missing element is ENOTFOUNDELEMENT within the budget', async () => {
    const start = Date.now();
    const { status, body } = await service.json(q(`${site.url}/static`, 'screenshot.element=%23absent&meta=false'));
    assert.equal(status, 400);
    assert.equal(body.code, 'ENOTFOUNDELEMENT');
    assert.ok(Date.now() - start < 10_000);
  });

  test('a page that never finishes loading, a page of dialogs and a 100 000 px page are bounded captures', async () => {
    for (const path of ['/never', '/alerts']) {
      const { status, body } = await service.json(q(`${site.url}${path}`, 'screenshot=true&timeout=15s'));
      assert.equal(status, 200, `${path}: ${JSON.stringify(body)}`);
      assert.ok(body.data.screenshot.url, path);
    }
    const tall = await service.json(q(`${site.url}/tall`, 'screenshot.fullPage=true&meta=false'));
    assert.equal(tall.status, 200);
    assert.equal(tall.body.data.screenshot.width, 2560);
    assert.ok(tall.body.data.screenshot.height > 1600 && tall.body.data.screenshot.height <= 16384, String(tall.body.data.screenshot.height));
  });

  test('the browser is still usable after all of the above', async () => {
    const { status, body } = await service.json(q(`${site.url}/static`, 'screenshot=true'));
    assert.equal(status, 200);
    assert.equal(body.data.screenshot.width, 2560);
  });
});
