/**
 * The pipeline runs only the steps whose work the answer can show: with `embed` or `filter`, extraction, pings
 * and captures that the output leaves out are not done at all (the target's server and server-timing tell).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const PAGE = '<!doctype html><title>Steps</title><meta property="og:image" content="/og.png"><body style="background:#0a0">page</body>';
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe('pipeline steps', () => {
  let site: TestServer;
  let service: Service;
  const paths = () => site.hits.map((hit) => new URL(hit, site.url).pathname);
  before(async () => {
    site = await startServer({
      '/': html(PAGE),
      '/og.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL),
    });
    service = await startService();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  test('embed=screenshot.url renders and stores, and neither extracts nor pings', async () => {
    const before = site.hits.length;
    const response = await service.request(q(`${site.url}/`, 'screenshot&embed=screenshot.url&force'));
    assert.equal(response.status, 302);
    assert.match(response.headers.get('location') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/.+\.png$/);
    const timing = response.headers.get('server-timing') ?? '';
    assert.match(timing, /render;dur=.*store;dur=/);
    assert.doesNotMatch(timing, /extract|ping|fetch;/);
    assert.deepEqual(paths().slice(before), ['/']);
  });

  test('filter=title with a screenshot asked for loads by fetch and captures nothing', async () => {
    const { body, headers } = await service.json(q(`${site.url}/`, 'screenshot&filter=title&force'));
    assert.deepEqual(body.data, { title: 'Steps' });
    assert.equal(headers.get('x-fetch-mode'), 'fetch');
    assert.doesNotMatch(headers.get('server-timing') ?? '', /render|store/);
  });

  test('embed=title does not ping the image it leaves out', async () => {
    const before = site.hits.length;
    const response = await service.request(q(`${site.url}/`, 'embed=title&force'));
    assert.equal(await response.text(), 'Steps');
    assert.deepEqual(paths().slice(before), ['/']);
  });

  test('without embed or filter every step that has work runs', async () => {
    const before = site.hits.length;
    const { body, headers } = await service.json(q(`${site.url}/`, 'force'));
    assert.equal(body.data.image.url, `${site.url}/og.png`);
    assert.match(headers.get('server-timing') ?? '', /fetch;dur=.*extract;dur=.*ping;dur=/);
    // The logo has no declared icon: its last-resort candidate is /favicon.ico.
    assert.deepEqual(paths().slice(before).sort(), ['/', '/favicon.ico', '/og.png']);
  });
});
