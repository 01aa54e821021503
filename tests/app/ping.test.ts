/** ping end to end (docs/CONTRACT.md §4): verified, enriched, falling back in order, and bound by the address rules. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';
import { ico, mp3, png } from '../ping/fixtures.ts';

const asset =
  (type: string, body: Buffer): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) }).end(body);

const PAGE = `<html><head><title>Ping</title>
<meta property="og:image" content="/dead.png"><meta property="og:image" content="/live.png">
<link rel="icon" href="/missing-icon.png" sizes="64x64"><link rel="apple-touch-icon" href="/touch.png">
<meta property="og:audio" content="/talk.mp3"></head><body></body></html>`;

describe('ping through the service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/page': html(PAGE),
      '/bare': html('<title>No icons</title>'),
      '/favicon.ico': asset('image/x-icon', ico([16, 48])),
      '/live.png': asset('image/png', png(800, 418)),
      '/touch.png': asset('image/png', png(180, 180)),
      '/talk.mp3': asset('audio/mpeg', mp3(200)),
      '/private': html(`<title>Private image</title><meta property="og:image" content="http://10.0.0.7:${80}/x.png">`),
    });
    service = await startApp();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('a dead image is dropped for the next declared one; the logo falls back to apple-touch-icon', async () => {
    const { body } = await service.json(q(`${site.url}/page`));
    assert.equal(body.data.image.url, `${site.url}/live.png`);
    assert.deepEqual([body.data.image.width, body.data.image.height, body.data.image.type], [800, 418, 'png']);
    assert.equal(body.data.logo.url, `${site.url}/touch.png`);
    assert.equal(body.data.logo.width, 180);
  });

  test('with no icon declared, /favicon.ico is found and measured', async () => {
    const { body } = await service.json(q(`${site.url}/bare`));
    assert.equal(body.data.logo.url, `${site.url}/favicon.ico`);
    assert.deepEqual([body.data.logo.type, body.data.logo.width, body.data.logo.height], ['ico', 48, 48]);
  });

  test('ping.audio=false leaves audio raw while image and logo stay checked', async () => {
    const before = site.hits.filter((hit) => hit === '/talk.mp3').length;
    const { body } = await service.json(q(`${site.url}/page`, 'audio&ping.audio=false&force'));
    assert.deepEqual(body.data.audio, { url: `${site.url}/talk.mp3`, type: 'mp3' });
    assert.equal(site.hits.filter((hit) => hit === '/talk.mp3').length, before, 'audio was not requested');
    assert.equal(body.data.image.url, `${site.url}/live.png`);
    assert.equal(body.data.image.width, 800);
  });

  test('ping=false keeps the first declared URLs unchecked', async () => {
    const { body } = await service.json(q(`${site.url}/page`, 'ping=false'));
    assert.deepEqual(body.data.image, { url: `${site.url}/dead.png`, type: 'png' });
    assert.deepEqual(body.data.logo, { url: `${site.url}/missing-icon.png`, type: 'png' });
  });

  test('the field is null when no candidate is reachable', async () => {
    const { body } = await service.json(q(`${site.url}/page`, 'meta.image=true&ping.image=true&force'));
    assert.ok(body.data.image);
    site.route('/live.png', (_req, res) => void res.writeHead(500).end());
    const { body: gone } = await service.json(q(`${site.url}/page`, 'meta.image=true&force&filter=image'));
    // The in-process ping cache keeps the earlier success for a few minutes: a fresh service sees the outage.
    const fresh = await startApp();
    try {
      const { body: none } = await fresh.json(q(`${site.url}/page`, 'meta.image=true'));
      assert.equal(none.data.image, null);
    } finally {
      await fresh.close();
      site.route('/live.png', asset('image/png', png(800, 418)));
    }
    assert.ok(gone.data.image, 'cached ping result reused');
  });

  test('with the exemption off, an og:image on a private address is null and nothing is requested from it', async () => {
    // public.test is exempt and resolves to the test server; 127.0.0.1 and 10.0.0.7 are not exempt.
    const resolver = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const strict = await startApp({ allowHosts: 'public.test', resolver });
    site.route('/to-loopback', html(`<title>x</title><meta property="og:image" content="http://127.0.0.1:${site.port}/live.png?private">`));
    try {
      const { body } = await strict.json(q(`http://public.test:${site.port}/to-loopback`));
      assert.equal(body.status, 'success');
      assert.equal(body.data.image, null);
      assert.equal(site.hits.includes('/live.png?private'), false);
      const other = await strict.json(q(`http://public.test:${site.port}/private`));
      assert.equal(other.body.data.image, null);
    } finally {
      await strict.close();
    }
  });

  test('our own stored screenshot is not pinged', async () => {
    const before = site.hits.length;
    const { body } = await service.json(q(`${site.url}/bare`, 'screenshot=true&meta=false&viewport.deviceScaleFactor=1'));
    assert.ok(body.data.screenshot.url.startsWith(service.url));
    assert.equal(site.hits.length - before, 1, 'only the page itself');
  });
});
