/** `insights.technologies` end to end, on pages built to carry known fingerprints. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readRules } from '../../lib/insights/rules.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

const WORDPRESS =
  '<html><head><title>Blog</title><meta name="generator" content="WordPress 6.4.2">' +
  '<script src="/wp-content/themes/site/app.js"></script>' +
  '<script src="https://code.example/jquery-3.7.1.min.js"></script></head><body><p>Hello</p></body></html>';

describe('insights.technologies', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/wordpress': html(WORDPRESS),
      '/express': html('<title>App</title>', { 'x-powered-by': 'Express', 'set-cookie': 'connect.sid=s%3Aabc; Path=/; HttpOnly' }),
      '/plain': html('<html><head><title>Plain</title></head><body><p>Just text.</p></body></html>'),
    });
    service = await startService();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  const technologies = async (path: string, rest = 'insights&insights.lighthouse=false&meta=false') => {
    const { status, body } = await service.json(q(`${site.url}${path}`, rest));
    assert.equal(status, 200, JSON.stringify(body));
    return body.data.insights.technologies as Array<Record<string, unknown>>;
  };
  const byName = (found: Array<Record<string, unknown>>) => new Map(found.map((t) => [t.name, t]));

  test('WordPress from its generator and wp-content script, with its version; jQuery from its script URL', async () => {
    const found = byName(await technologies('/wordpress'));
    const wordpress = found.get('WordPress');
    assert.ok(wordpress, [...found.keys()].join(', '));
    assert.equal(wordpress.confidence, 100);
    assert.equal(wordpress.version, '6.4.2');
    assert.ok((wordpress.categories as string[]).includes('CMS'));
    assert.equal(wordpress.url, 'https://wordpress.org');
    // The icon at the commit the shipped rules come from, never whatever a branch holds today.
    assert.equal(wordpress.logo, `https://github.com/enthec/webappanalyzer/raw/${readRules().source.commit}/src/images/icons/WordPress.svg`);
    assert.equal(found.get('jQuery')?.version, '3.7.1');
    // Implied by WordPress's rule.
    assert.ok(found.has('PHP'));
  });

  test('Express from the x-powered-by header and its session cookie, Node.js implied', async () => {
    const found = byName(await technologies('/express'));
    assert.equal(found.get('Express')?.confidence, 100);
    assert.ok(found.has('Node.js'));
  });

  test('a plain page has none', async () => {
    assert.deepEqual(await technologies('/plain'), []);
  });

  test('beside metadata, with insights.technologies; the cookie never reaches the answer', async () => {
    const { body } = await service.json(q(`${site.url}/express`, 'insights.technologies=true&insights.lighthouse=false&meta.title'));
    assert.equal(body.data.title, 'App');
    assert.ok(byName(body.data.insights.technologies).has('Express'));
    assert.equal(JSON.stringify(body).includes('abc'), false);
  });

  test('invalid values are refused naming the option', async () => {
    for (const [query, param] of [
      ['insights=sometimes', 'insights'],
      ['insights.technologies=maybe', 'insights.technologies'],
      ['insights.lighthouse=soon', 'insights.lighthouse'],
    ] as const) {
      const { status, body } = await service.json(q(`${site.url}/plain`, query));
      assert.equal(status, 400);
      assert.equal(body.code, 'EINVALQUERY');
      assert.match(body.message, new RegExp(`\`${param.replace('.', '\\.')}\``));
      assert.ok(param in body.data);
    }
  });
});
