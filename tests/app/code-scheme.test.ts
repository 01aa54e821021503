/**
 * `screenshot.codeScheme` end to end: a JSON target is captured highlighted in the theme (automad-prism-themes'
 * file, as Microlink draws it), not as raw text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const require = createRequire(import.meta.url);
const JSON_BODY = JSON.stringify({ name: 'glance', tags: ['screenshot', 'palette', 'adblock'], stars: 42, open: true });

/** The background automad-prism-themes gives a theme's <pre>, as `#RRGGBB`. */
function themeBackground(scheme: string): string {
  const css = readFileSync(require.resolve(`automad-prism-themes/dist/prism-${scheme}.css`), 'utf8');
  // Past the shared base styles, the theme's own rule for the <pre>.
  const own = css.slice(css.indexOf('/*!'));
  const hex = /pre\[class\*=language-\][^{]*\{[^}]*background:#([0-9a-f]{6})\b/i.exec(own)?.[1];
  assert.ok(hex, `a background in ${scheme}'s CSS`);
  return `#${hex.toUpperCase()}`;
}

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

  // A combo's dark variant needs a dark class on an ancestor (Microlink's docs): the capture sets none, so light.
  test("Microlink's `github`, a light/dark combo, draws automad's GitHub theme in its light variant", async () => {
    const png = await shot('screenshot.codeScheme=github');
    assert.ok(count(png, '#FFFFFF') / (png.width * png.height) > 0.8, 'a white page');
    assert.ok(count(png, '#116329') > 50, 'github-light property colour #116329');
    assert.equal(count(png, '#0D1117'), 0, 'not the dark variant');
  });

  for (const scheme of ['github-dark', 'tokyo-night', 'catppuccin-mocha']) {
    test(`${scheme}: the capture's background is the automad theme's own`, async () => {
      const background = themeBackground(scheme);
      const png = await shot(`screenshot.codeScheme=${scheme}`);
      const corner = `#${[...png.data.subarray(0, 3)].map((c) => c.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
      assert.equal(corner, background, `${scheme} background`);
      assert.ok(count(png, background) / (png.width * png.height) > 0.8, `${scheme} fills the capture`);
    });
  }

  test('a stylesheet URL is EUNSUPPORTED naming screenshot.codeScheme, with the reason', async () => {
    const url = encodeURIComponent('https://unpkg.com/prism-theme-night-owl');
    const { status, body } = await service.json(q(`${site.url}/data.json`, `screenshot&screenshot.codeScheme=${url}`));
    assert.equal(status, 400);
    assert.equal(body.code, 'EUNSUPPORTED');
    assert.deepEqual(Object.keys(body.data), ['screenshot.codeScheme']);
    assert.match(body.message, /from a URL/);
  });

  test('an unknown theme is EINVALQUERY naming screenshot.codeScheme and the accepted values', async () => {
    const { status, body } = await service.json(q(`${site.url}/data.json`, 'screenshot.codeScheme=neon'));
    assert.equal(status, 400);
    assert.equal(body.code, 'EINVALQUERY');
    assert.match(body.message, /screenshot\.codeScheme/);
    assert.match(body.message, /atom-dark/);
  });
});
