/**
 * The default refuses every target that is not public (docs/CONTRACT.md §7), end to end through the local service, with
 * the exemption setting off. A listening server on 127.0.0.1 proves that nothing reached it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startService, type Service } from '../helpers/service.ts';

describe('address rules, exemption off', () => {
  let site: TestServer;
  let strict: Service;
  let publicName: Service;
  before(async () => {
    site = await startServer({
      '/': html('<title>private</title>'),
      '/secret': html('<title>secret</title>'),
      '/to-loopback': (_req, res) => void res.writeHead(302, { location: `http://127.0.0.1:${site.port}/secret` }).end(),
      '/to-metadata': (_req, res) => void res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-file': (_req, res) => void res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
      '/to-smtp': (_req, res) => void res.writeHead(302, { location: 'http://public.example:25/' }).end(),
    });
    // Every name resolves to 127.0.0.1: a public-looking host that points inside.
    // (`ten.example` points to a private range instead.)
    const resolver = async (name: string) => [{ address: name === 'ten.example' ? '10.0.0.1' : '127.0.0.1', family: 4 as const }];
    strict = await startService({ allowHosts: '', resolver });
    // Only the name public.example is exempt (not its address): its redirects are still checked.
    publicName = await startService({ allowHosts: 'public.example', resolver });
  });
  after(async () => {
    await Promise.all([strict.close(), publicName.close()]);
    await site.close();
  });

  const refused = (target: () => string, code: string, status: number) => async () => {
    const hits = site.hits.length;
    const { status: got, body } = await strict.json(q(target()));
    assert.equal(got, status, JSON.stringify(body));
    assert.equal(body.status, 'fail');
    assert.equal(body.code, code);
    assert.equal(typeof body.message, 'string');
    assert.doesNotMatch(body.message, /\n\s+at /, 'no stack trace');
    assert.equal(site.hits.length, hits, 'nothing was fetched');
  };

  for (const host of [
    '127.0.0.1',
    'localhost',
    '[::1]',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '[::ffff:127.0.0.1]',
    '0.0.0.0',
    '2130706433',
    '0x7f.1',
    '017700000001',
    '[fd00:ec2::254]',
    '100.64.0.1',
  ]) {
    test(`refuses http://${host}`, refused(() => `http://${host}:${site.port}/`, 'EFORBIDDENURL', 403));
  }

  test('refuses a public-looking name that resolves to 127.0.0.1', refused(() => `http://intranet.example:${site.port}/`, 'EFORBIDDENURL', 403));

  test('a refused name is not a DNS oracle: the answer never says what the name resolves to', async () => {
    for (const [name, address] of [['intranet.example', '127.0.0.1'], ['ten.example', '10.0.0.1']] as const) {
      const { status, body } = await strict.json(q(`http://${name}:${site.port}/`));
      assert.equal(status, 403);
      assert.equal(body.code, 'EFORBIDDENURL');
      assert.match(body.message, new RegExp(`${name} does not resolve to a public address`));
      assert.equal(JSON.stringify(body).includes(address), false, JSON.stringify(body));
    }
  });

  for (const target of ['file:///etc/passwd', 'gopher://127.0.0.1:70/', 'data:text/html,<title>x</title>', 'javascript:alert(1)', 'ftp://example.com/']) {
    test(`refuses the scheme of ${target}`, refused(() => target, 'EINVALURL', 400));
  }

  for (const [path, what, code, statusCode] of [
    ['/to-loopback', 'a loopback address', 'EFORBIDDENURL', 403],
    ['/to-metadata', 'the cloud metadata address', 'EFORBIDDENURL', 403],
    ['/to-file', 'a file: URL', 'EINVALURL', 400],
    ['/to-smtp', 'a bad port (25, SMTP) of the exempt host', 'EFORBIDDENURL', 403],
  ] as const) {
    test(`refuses a public page that redirects to ${what}`, async () => {
      const { status, body } = await publicName.json(q(`http://public.example:${site.port}${path}`));
      assert.equal(status, statusCode);
      assert.equal(body.code, code);
      assert.equal(site.hits.includes(path), true, 'the exempt first hop was fetched');
      assert.equal(site.hits.includes('/secret'), false, 'the private hop was not');
    });
  }

  test('a bad port is refused even on an exempt host: protocol safety, not an address rule', async () => {
    for (const port of [25, 6379, 11211]) {
      const { status, body } = await publicName.json(q(`http://public.example:${port}/`));
      assert.equal(status, 403, JSON.stringify(body));
      assert.equal(body.code, 'EFORBIDDENURL');
      assert.match(body.message, new RegExp(`uses port ${port}`));
    }
  });

  test('the exempt name itself is served, proving the exemption is what differs', async () => {
    const { status, body } = await publicName.json(q(`http://public.example:${site.port}/secret`));
    assert.equal(status, 200);
    assert.equal(body.data.title, 'secret');
  });
});
