import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchPage, openResponse } from '../../lib/fetch/index.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { USER_AGENT, fixedResolver, options, rejectsWith } from './setup.ts';

const redirect =
  (status: number, location: string): Route =>
  (_req, res) =>
    void res.writeHead(status, { location }).end();

/** /hop?n=K redirects to /hop?n=K-1 until 0, which answers 200. */
const hops: Route = (req, res) => {
  const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
  if (n > 0) res.writeHead(302, { location: `/hop?n=${n - 1}` }).end();
  else html('<title>landed</title>')(req, res);
};

const echoHeaders: Route = (req, res) =>
  void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));

let server: TestServer;
let other: TestServer;

before(async () => {
  other = await startServer({ '/echo': echoHeaders });
  server = await startServer({
    '/page': (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('x-multi', ['a', 'b']);
      res.setHeader('set-cookie', ['session=secret']);
      res.writeHead(200).end('<title>Hello</title>');
    },
    '/echo': echoHeaders,
    '/r1': redirect(301, '/r2'),
    '/r2': redirect(302, 'r3?x=1'),
    '/r3': (req, res) => redirect(307, `${server.url}/page`)(req, res),
    '/see-other': redirect(303, '/echo'),
    '/hop': hops,
    '/loop-a': redirect(302, '/loop-b'),
    '/loop-b': redirect(302, '/loop-a'),
    '/no-location': (_req, res) => void res.writeHead(302, { 'content-type': 'text/html' }).end('<p>moved?</p>'),
    '/missing': html('<title>Gone</title>', {}, 404),
    '/to-other': (req, res) => redirect(302, `${other.url}/echo`)(req, res),
  });
});

after(async () => {
  await server.close();
  await other.close();
});

describe('fetchPage', () => {
  test('answers status, headers, body and final URL', async () => {
    const page = await fetchPage(`${server.url}/page`, options());
    assert.equal(page.statusCode, 200);
    assert.equal(page.url, `${server.url}/page`);
    assert.equal(page.body.toString(), '<title>Hello</title>');
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['x-multi'], 'a, b');
    assert.equal(page.headers['set-cookie'], undefined);
    assert.equal(page.headers.connection, undefined, 'hop-by-hop fields describe our connection, not the page');
    assert.equal(page.headers['keep-alive'], undefined);
    assert.deepEqual(page.redirects, []);
    assert.ok(page.timeMs >= 0 && page.timeMs < 2000);
  });

  test('an IDN host is resolved and sent in its punycode form', async () => {
    const resolver = fixedResolver('127.0.0.1');
    const page = await fetchPage(`http://bücher.example:${server.port}/echo`, options({ resolver }));
    assert.deepEqual(resolver.calls, ['xn--bcher-kva.example']);
    assert.equal(JSON.parse(page.body.toString()).host, `xn--bcher-kva.example:${server.port}`);
  });

  test('a 404 is a response, not an error', async () => {
    const page = await fetchPage(`${server.url}/missing`, options());
    assert.equal(page.statusCode, 404);
    assert.equal(page.body.toString(), '<title>Gone</title>');
  });

  test('sends browser-like defaults and forwards caller headers, which override them', async () => {
    const sent = JSON.parse(
      (
        await fetchPage(`${server.url}/echo`, options({ headers: { 'X-Custom': 'yes', 'Accept-Language': 'fr' } }))
      ).body.toString(),
    );
    assert.equal(sent['user-agent'], USER_AGENT);
    assert.match(sent.accept, /^text\/html,application\/xhtml\+xml,/);
    assert.equal(sent['accept-language'], 'fr');
    assert.equal(sent['accept-encoding'], 'gzip, deflate, br');
    assert.equal(sent['x-custom'], 'yes');
    const overridden = JSON.parse(
      (await fetchPage(`${server.url}/echo`, options({ headers: { 'user-agent': 'Caller/2' } }))).body.toString(),
    );
    assert.equal(overridden['user-agent'], 'Caller/2');
  });

  test('drops hop-by-hop and message headers from the caller', async () => {
    const sent = JSON.parse(
      (
        await fetchPage(
          `${server.url}/echo`,
          options({ headers: { host: 'evil.example', connection: 'close', 'accept-encoding': 'zstd', te: 'trailers' } }),
        )
      ).body.toString(),
    );
    assert.equal(sent.host, `127.0.0.1:${server.port}`);
    assert.notEqual(sent.connection, 'close');
    assert.equal(sent['accept-encoding'], 'gzip, deflate, br');
    assert.equal(sent.te, undefined);
  });

  // The query parser is where caller headers are checked (tests/query/target-headers.test.ts); a header that
  // reached the fetcher unchecked still never splits a request: not a byte goes out.
  test('a header that would split the request never reaches the target', async () => {
    const seen = server.hits.length;
    await rejectsWith(fetchPage(`${server.url}/echo`, options({ headers: { 'x-a': 'b\r\nx-evil: 1' } })), 'EFETCH');
    await rejectsWith(fetchPage(`${server.url}/echo`, options({ headers: { 'bad name': 'x' } })), 'EFETCH');
    assert.equal(server.hits.length, seen);
  });

  test('HEAD sends HEAD and yields an empty body', async () => {
    const seen = server.hits.length;
    const page = await fetchPage(`${server.url}/page`, options({ method: 'HEAD' }));
    assert.equal(page.statusCode, 200);
    assert.equal(page.body.length, 0);
    assert.equal(server.hits.length, seen + 1);
  });
});

describe('redirects', () => {
  test('are followed by hand and recorded, relative ones resolved against the current URL', async () => {
    const page = await fetchPage(`${server.url}/r1`, options());
    assert.deepEqual(page.redirects, [
      { statusCode: 301, url: `${server.url}/r2` },
      { statusCode: 302, url: `${server.url}/r3?x=1` },
      { statusCode: 307, url: `${server.url}/page` },
    ]);
    assert.equal(page.url, `${server.url}/page`);
    assert.equal(page.body.toString(), '<title>Hello</title>');
  });

  test('a 303 leads to a GET', async () => {
    const page = await fetchPage(`${server.url}/see-other`, options());
    assert.equal(page.statusCode, 200);
    assert.equal(page.url, `${server.url}/echo`);
  });

  test('10 redirects are fine, the 11th is EMAXREDIRECTS', async () => {
    const page = await fetchPage(`${server.url}/hop?n=10`, options());
    assert.equal(page.redirects.length, 10);
    assert.equal(page.body.toString(), '<title>landed</title>');
    const error = await rejectsWith(fetchPage(`${server.url}/hop?n=11`, options()), 'EMAXREDIRECTS');
    assert.match(error.message, /more than 10 times/);
  });

  test('maxRedirects lowers the limit', async () => {
    await rejectsWith(fetchPage(`${server.url}/hop?n=3`, options({ maxRedirects: 2 })), 'EMAXREDIRECTS');
  });

  test('a loop ends in EMAXREDIRECTS that says so', async () => {
    const error = await rejectsWith(fetchPage(`${server.url}/loop-a`, options()), 'EMAXREDIRECTS');
    assert.match(error.message, /loop/);
  });

  test('a 3xx without Location is the final response', async () => {
    const page = await fetchPage(`${server.url}/no-location`, options());
    assert.equal(page.statusCode, 302);
    assert.equal(page.body.toString(), '<p>moved?</p>');
    assert.deepEqual(page.redirects, []);
  });

  test('the target-only headers do not follow a redirect to another origin; the others do', async () => {
    const targetOnly = { authorization: 'Bearer secret', cookie: 'a=b', 'x-token': 't' };
    const headers = { 'x-keep': 'kept' };
    const same = JSON.parse((await fetchPage(`${server.url}/echo`, options({ headers, targetOnly }))).body.toString());
    assert.equal(same.authorization, 'Bearer secret');
    assert.equal(same['x-token'], 't');
    const page = await fetchPage(`${server.url}/to-other`, options({ headers, targetOnly }));
    assert.equal(page.url, `${other.url}/echo`);
    const sent = JSON.parse(page.body.toString());
    assert.equal(sent.authorization, undefined);
    assert.equal(sent.cookie, undefined);
    assert.equal(sent['x-token'], undefined);
    assert.equal(sent['x-keep'], 'kept');
  });

  test('every request carries the hop header, which no caller header can change', async () => {
    const caller = { headers: { 'X-Glance-Hop': '1' }, targetOnly: { 'x-glance-hop': '1' } };
    const sent = JSON.parse((await fetchPage(`${server.url}/echo`, options(caller))).body.toString());
    assert.equal(sent['x-glance-hop'], '2', 'by default the final mark, which no Glance answers');
    const media = JSON.parse((await fetchPage(`${server.url}/echo`, options({ headers: { 'X-Glance-Hop': '2' }, hop: '1' }))).body.toString());
    assert.equal(media['x-glance-hop'], '1', 'a media probe of a caller’s answer may be answered once');
  });

  test('a redirect to a non-http scheme is EINVALURL', async () => {
    server.route('/to-file', redirect(302, 'file:///etc/passwd'));
    const error = await rejectsWith(fetchPage(`${server.url}/to-file`, options()), 'EINVALURL');
    assert.match(error.message, /redirected/);
  });
});

describe('network failures', () => {
  test('connection refused is EFETCH naming the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejectsWith(fetchPage(`http://127.0.0.1:${port}/`, options()), 'EFETCH');
    assert.match(error.message, /refused the connection/);
    assert.ok(error.cause);
  });

  test('a reset connection is EFETCH', async () => {
    server.route('/reset', (req) => void req.socket.destroy());
    const error = await rejectsWith(fetchPage(`${server.url}/reset`, options()), 'EFETCH');
    assert.match(error.message, /reset|closed/);
  });

  test('an unresolvable name is EFETCH "could not resolve host"', async () => {
    const resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    const error = await rejectsWith(fetchPage('http://nowhere.example/', options({ resolver })), 'EFETCH');
    assert.match(error.message, /could not resolve host nowhere\.example/);
  });

  test('an invalid URL fails before any request', async () => {
    await rejectsWith(openResponse('gopher://x', options()), 'EINVALURL');
  });
});
