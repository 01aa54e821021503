/** `screenshot.codeScheme` end to end: a JSON target is captured highlighted in the theme, not as raw text. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const JSON_BODY = JSON.stringify({ name: 'glance', tags: ['screenshot', 'palette', 'adblock'], stars: 42, open: true });

/** Pixels exactly of `hex`. */
function count(png: PNG, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i] === r && png.data[i + 1] === g && png.data[i + 2] === b) n++;
  return n;
}

describe('screenshot.codeScheme through the service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/data.json': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_BODY),
    });
    service = await startService();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  const shot = async (query: string) => {
    const { status, body } = await service.json(q(`${site.url}/data.json`, `screenshot&meta=false&force&${query}`));
    assert.equal(status, 200, JSON.stringify(body));
    return PNG.sync.read(Buffer.from(await (await fetch(body.data.screenshot.url)).arrayBuffer()));
  };

  test('default atom-dark: the theme background fills the image and its string colour is drawn', async () => {
    const png = await shot('');
    const pixels = png.width * png.height;
    assert.ok(count(png, '#1D1F21') / pixels > 0.8, 'atom-dark background #1d1f21');
    assert.ok(count(png, '#A8FF60') > 50, 'atom-dark string colour #a8ff60');
    assert.ok(count(png, '#96CBFE') > 50, 'atom-dark property colour #96cbfe');
  });

  test('another theme by name: dracula', async () => {
    const png = await shot('screenshot.codeScheme=dracula');
    assert.ok(count(png, '#282A36') / (png.width * png.height) > 0.8, 'dracula background #282a36');
  });

  test("Microlink's `github` draws prism-themes' GitHub theme, ghcolors", async () => {
    const png = await shot('screenshot.codeScheme=github');
    assert.ok(count(png, '#FFFFFF') / (png.width * png.height) > 0.8, 'a white page');
    assert.ok(count(png, '#E3116C') > 50, 'ghcolors string colour #e3116c');
    assert.ok(count(png, '#36ACAA') > 50, 'ghcolors property colour #36acaa');
  });

  test("a theme Microlink documents that Glance does not bundle is EUNSUPPORTED naming screenshot.codeScheme", async () => {
    const { status, body } = await service.json(q(`${site.url}/data.json`, 'screenshot.codeScheme=github-dark'));
    assert.equal(status, 400);
    assert.equal(body.code, 'EUNSUPPORTED');
    assert.deepEqual(Object.keys(body.data), ['screenshot.codeScheme']);
    assert.match(body.message, /`github-dark` is not bundled/);
  });

  test('an unknown theme is EINVALQUERY naming screenshot.codeScheme and the accepted values', async () => {
    const { status, body } = await service.json(q(`${site.url}/data.json`, 'screenshot.codeScheme=neon'));
    assert.equal(status, 400);
    assert.equal(body.code, 'EINVALQUERY');
    assert.match(body.message, /screenshot\.codeScheme/);
    assert.match(body.message, /atom-dark/);
  });
});
