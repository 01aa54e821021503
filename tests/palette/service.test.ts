/** `palette` end to end: image and logo coloured from the bytes their ping read, each fetched once. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { contrastRatio, rgbOf } from '../../lib/palette/contrast.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';
import { jpegOf, photoLike, pngOf } from './images.ts';

const asset =
  (type: string, body: Buffer): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) }).end(body);

const PAGE = `<html><head><title>Colours</title><meta property="og:image" content="/photo.jpg">
<link rel="icon" href="/icon.png" sizes="64x64"></head><body></body></html>`;

describe('palette through the service', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/page': html(PAGE),
      '/photo.jpg': asset('image/jpeg', await jpegOf(640, 480, photoLike)),
      '/icon.png': asset('image/png', pngOf(64, 64, (x) => (x < 48 ? [255, 255, 255] : [200, 0, 0]))),
    });
    service = await startService();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('image and logo gain palette and contrasting colours; each file is downloaded once', async () => {
    const { body } = await service.json(q(`${site.url}/page`, 'palette'));
    const { image, logo } = body.data;
    assert.equal(image.width, 640);
    assert.ok(image.palette.length >= 3);
    assert.equal(image.background_color, image.palette[0]);
    assert.ok(contrastRatio(rgbOf(image.color), rgbOf(image.background_color)) >= 4.5);
    assert.equal(logo.background_color, '#FFFFFF');
    assert.ok(contrastRatio(rgbOf(logo.color), rgbOf(logo.background_color)) >= 4.5);
    assert.equal(site.hits.filter((hit) => hit === '/photo.jpg').length, 1);
    assert.equal(site.hits.filter((hit) => hit === '/icon.png').length, 1);
  });

  test('without palette the media objects have no colours', async () => {
    const { body } = await service.json(q(`${site.url}/page`));
    assert.equal(body.data.image.palette, undefined);
    assert.equal(body.data.logo.background_color, undefined);
  });

  test('an invalid palette value names the parameter', async () => {
    const { status, body } = await service.json(q(`${site.url}/page`, 'palette=maybe'));
    assert.equal(status, 400);
    assert.equal(body.code, 'EINVALQUERY');
    assert.match(body.message, /palette/);
  });
});
