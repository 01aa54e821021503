/** Bad input and hostile targets: each gets a clear answer, in the documented payload, within the budget. */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q, startApp, type Service } from '../helpers/service.ts';

describe('bad input', () => {
  let site: TestServer;
  let service: Service;
  before(async () => {
    site = await startServer({
      '/': html('<title>ok</title>'),
      '/never': () => undefined,
      '/trickle': async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        for (let i = 0; i < 100 && !res.destroyed; i++) {
          res.write('<p>slow</p>');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        res.end();
      },
      '/huge': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(1024 * 1024, 0x61);
        let sent = 0;
        const pump = () => {
          while (sent < 50 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
      '/loop': (_req, res) => void res.writeHead(302, { location: '/loop2' }).end(),
      '/loop2': (_req, res) => void res.writeHead(302, { location: '/loop' }).end(),
      '/broken-gzip': (_req, res) => {
        const good = gzipSync('<title>broken</title>'.repeat(50));
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(Buffer.concat([good.subarray(0, 20), Buffer.from('garbage garbage garbage garbage')]));
      },
      '/pdf': (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4'),
    });
    service = await startApp();
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  const expectError = async (query: string, code: string, status: number, param?: string) => {
    const { status: got, body } = await service.json(query);
    assert.equal(got, status, JSON.stringify(body));
    assert.equal(body.code, code);
    assert.equal(body.status, status < 500 ? 'fail' : 'error');
    assert.equal(typeof body.more, 'string');
    assert.ok(body.message.length > 10);
    if (param) assert.match(body.message, new RegExp(param.replace('.', '\\.')));
    return body;
  };

  test('an unknown device is refused by name whether or not the request renders', async () => {
    for (const rest of ['device=nonsense', 'device=nonsense&screenshot', 'device=nonsense&meta=false&prerender=false']) {
      const { status, body } = await service.json(q(`${site.url}/`, rest));
      assert.equal(status, 400, rest);
      assert.equal(body.code, 'EINVALQUERY', rest);
      assert.match(body.message, /`device`.*"nonsense" is not a known device/, rest);
      assert.deepEqual(Object.keys(body.data), ['device'], rest);
    }
    const { status } = await service.json(q(`${site.url}/`, 'device=IPHONE+15'));
    assert.equal(status, 200);
  });

  test('a missing, empty or garbage url is EINVALURL naming url', async () => {
    await expectError('', 'EINVALURL', 400, 'url');
    await expectError('url=', 'EINVALURL', 400, 'url');
    await expectError('url=not%20a%20url', 'EINVALURL', 400, 'url');
    await expectError('url=http://', 'EINVALURL', 400, 'url');
  });

  test('an 8 kB query string is served; a huge one is refused', async () => {
    const ok = await service.json(q(`${site.url}/`, `junk=${'x'.repeat(8 * 1024)}`));
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.title, 'ok');
    await expectError(q(`${site.url}/`, `junk=${'x'.repeat(20 * 1024)}`), 'EINVALQUERY', 400);
  });

  test('unknown parameters are ignored; conflicting ones are refused by name', async () => {
    const ok = await service.json(q(`${site.url}/`, 'nonsense=1&whatever.deep=2'));
    assert.equal(ok.status, 200);
    await expectError(q(`${site.url}/`, 'ttl=1h&ttl=2h'), 'EINVALQUERY', 400, 'ttl');
    await expectError(q(`${site.url}/`, 'screenshot=false&screenshot.type=jpeg'), 'EINVALQUERY', 400, 'screenshot');
  });

  test('__proto__ and constructor keys are refused and pollute nothing', async () => {
    await expectError(q(`${site.url}/`, '__proto__.polluted=yes'), 'EINVALQUERY', 400);
    await expectError(q(`${site.url}/`, 'constructor.prototype.polluted=yes'), 'EINVALQUERY', 400);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('invalid durations name the parameter with its code', async () => {
    await expectError(q(`${site.url}/`, 'ttl=soon'), 'EINVALTTL', 400, 'ttl');
    await expectError(q(`${site.url}/`, 'ttl=10s'), 'EINVALTTL', 400, 'ttl');
    await expectError(q(`${site.url}/`, 'ttl=1h&staleTtl=2h'), 'EINVALSTTL', 400, 'staleTtl');
    await expectError(q(`${site.url}/`, 'timeout=1m'), 'EINVALQUERY', 400, 'timeout');
  });

  test('a target that never answers ends in ETIMEOUT within the timeout', async () => {
    const start = Date.now();
    await expectError(q(`${site.url}/never`, 'timeout=1500'), 'ETIMEOUT', 504);
    assert.ok(Date.now() - start < 2500, `took ${Date.now() - start} ms`);
  });

  test('a target that trickles bytes ends in ETIMEOUT within the timeout', async () => {
    const start = Date.now();
    await expectError(q(`${site.url}/trickle`, 'timeout=1500'), 'ETIMEOUT', 504);
    assert.ok(Date.now() - start < 2500, `took ${Date.now() - start} ms`);
  });

  test('a 50 MB page is ETOOLARGE, without reading it all', async () => {
    const start = Date.now();
    await expectError(q(`${site.url}/huge`), 'ETOOLARGE', 413);
    assert.ok(Date.now() - start < 5000);
  });

  test('a redirect loop is EMAXREDIRECTS', async () => {
    await expectError(q(`${site.url}/loop`), 'EMAXREDIRECTS', 400);
  });

  test('broken gzip is EFETCH with a clear message', async () => {
    const body = await expectError(q(`${site.url}/broken-gzip`), 'EFETCH', 502);
    assert.match(body.message, /decompress|gzip|encod/i);
  });

  test('a connection refused is EFETCH', async () => {
    const closed = await startServer();
    const port = closed.port;
    await closed.close();
    await expectError(q(`http://127.0.0.1:${port}/`), 'EFETCH', 502);
  });

  test('a non-HTML type is a success with null fields, not an error', async () => {
    const { status, body } = await service.json(q(`${site.url}/pdf`));
    assert.equal(status, 200);
    assert.equal(body.data.title, null);
    assert.equal(body.data.url, `${site.url}/pdf`);
  });

  test('the service stays healthy after all of the above', async () => {
    const { status, body } = await service.json(q(`${site.url}/`));
    assert.equal(status, 200);
    assert.equal(body.data.title, 'ok');
  });
});
