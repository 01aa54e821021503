/** The published Microlink client works against Glance by changing only its endpoint. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import mql, { MicrolinkError } from '@microlink/mql';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

describe('@microlink/mql against the local service', () => {
  let site: TestServer;
  let service: Service;
  let strict: Service;
  before(async () => {
    site = await startServer({
      // Starts answering, never finishes: every render of it runs out of time.
      '/never': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).write('<title>'),
      '/': html('<html lang="en"><title>Client page</title><meta name="description" content="Read by mql"></html>'),
      '/painted': html('<!doctype html><html lang="en"><title>Painted</title><meta name="description" content="Audited"><h1>Painted</h1></html>'),
      '/embeddable': html(
        '<title>Embeddable</title><meta name="generator" content="WordPress 6.4.2">' +
          '<link rel="alternate" type="application/json+oembed" href="/oembed">',
      ),
      '/oembed': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ version: '1.0', type: 'rich', html: '<p>Card</p><iframe src="https://w.example/card" width="350"></iframe><script async src="https://w.example/w.js"></script>' })),
    });
    // Lighthouse and its browser loaded first, as the local service does at start-up: a cold report is not the subject.
    service = await startService({ prepared: true });
    strict = await startService({ allowHosts: '' });
  });
  after(async () => {
    await Promise.all([service.close(), strict.close()]);
    await site.close();
  });

  test('gets the same data as a direct request', async () => {
    const direct = await service.json(q(`${site.url}/`, 'meta.title=true&meta.description=true&meta.lang=true'));
    const response = await mql(`${site.url}/`, {
      endpoint: `${service.url}/`,
      meta: { title: true, description: true, lang: true },
    } as Parameters<typeof mql>[1]);
    assert.equal(response.status, 'success');
    assert.deepEqual(response.data, direct.body.data);
    assert.deepEqual(response.data, { title: 'Client page', description: 'Read by mql', lang: 'en' });
  });

  test('iframe and insights, asked as mql types them, are read where it types them', async () => {
    const { data } = await mql(`${site.url}/embeddable`, {
      endpoint: `${service.url}/`,
      meta: false,
      iframe: { maxWidth: 350 },
      insights: { technologies: true, lighthouse: false },
    });
    // A page's own oEmbed endpoint (no known provider): its markup is kept to the player's https iframe.
    assert.deepEqual(data.iframe, { html: '<iframe src="https://w.example/card" width="350"></iframe>', scripts: [] });
    const { insights } = data as typeof data & { insights: { technologies: Array<{ name: string }> } };
    assert.ok(insights.technologies.some(({ name }) => name === 'WordPress'));
  });

  test('a Lighthouse report asked as mql types it (an options object, a category list) is read where Microlink puts it', async () => {
    const { data } = await mql(`${site.url}/painted`, {
      endpoint: `${service.url}/`,
      meta: false,
      insights: { technologies: false, lighthouse: { onlyCategories: ['seo'] } },
    });
    const { insights } = data as typeof data & { insights: { lighthouse: { categories: Record<string, { score: number }> } } };
    assert.deepEqual(Object.keys(insights.lighthouse.categories), ['seo']);
    assert.equal(typeof insights.lighthouse.categories['seo']?.score, 'number');
  });

  test('raises a MicrolinkError with our code and status for a URL Glance refuses', async () => {
    await assert.rejects(
      mql(`http://127.0.0.1:${site.port}/`, { endpoint: `${strict.url}/` } as Parameters<typeof mql>[1]),
      (error: unknown) => {
        assert.ok(error instanceof MicrolinkError);
        const { code, statusCode, status } = error as unknown as { code: string; statusCode: number; status: string };
        assert.equal(code, 'EFORBIDDENURL');
        assert.equal(statusCode, 403);
        assert.equal(status, 'fail');
        return true;
      },
    );
  });

  test('raises EINVALURL for a URL that is not a valid address', async () => {
    await assert.rejects(
      mql(`http://${'a'.repeat(64)}.example/`, { endpoint: `${service.url}/` } as Parameters<typeof mql>[1]),
      (error: unknown) => {
        const { code, statusCode } = error as { code: string; statusCode: number };
        assert.equal(code, 'EINVALURL');
        assert.equal(statusCode, 400);
        return true;
      },
    );
  });

  test("a timed-out request retried by the client (a 504 is retried twice, force included) is rendered once", async () => {
    const started = Date.now();
    await assert.rejects(
      mql(`${site.url}/never`, { endpoint: `${service.url}/`, timeout: '2s', force: true } as Parameters<typeof mql>[1]),
      (error: unknown) => {
        assert.ok(error instanceof MicrolinkError);
        assert.equal((error as unknown as { code: string }).code, 'ETIMEOUT');
        return true;
      },
    );
    assert.equal(site.hits.filter((path) => path === '/never').length, 1, 'fetched once for the request and its retries');
    assert.ok(Date.now() - started < 5_000, `the caller waited ${Date.now() - started} ms`);
  });
});
