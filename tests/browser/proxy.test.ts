/**
 * The guarded proxy on its own, driven as Chromium drives it: absolute-form requests for http, CONNECT tunnels
 * for https and websockets.
 */
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import { startProxy, type GuardedProxy } from '../../lib/browser/proxy.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { localGuess } from '../helpers/charset.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A plain request through the proxy, as a browser sends it: the absolute URL as the request target. */
function viaProxy(proxy: GuardedProxy, target: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path: target, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** CONNECT host:port, then (when the tunnel opens) an HTTP/1.0 GET through it; answers the raw bytes. */
function tunnel(proxy: GuardedProxy, authority: string): Promise<string> {
  const { hostname, port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let sent = false;
    socket.setEncoding('latin1');
    socket.on('connect', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!sent && text.startsWith('HTTP/1.1 200') && text.includes('\r\n\r\n')) {
        sent = true;
        socket.write('GET /through HTTP/1.0\r\nHost: x\r\n\r\n');
      }
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('guarded proxy', () => {
  let site: TestServer;
  const seen: IncomingHttpHeaders[] = [];
  before(async () => {
    site = await startServer({
      '/ok': (req, res) => {
        seen.push(req.headers);
        res.writeHead(200, { 'content-type': 'text/plain', 'x-from': 'target', connection: 'x-hop', 'x-hop': '1' }).end('hello');
      },
      '/through': (_req, res) => void res.writeHead(200).end('tunnelled'),
    });
  });
  after(() => site.close());

  test('forwards allowed http requests and drops hop-by-hop fields both ways', async () => {
    const proxy = await startProxy({ policy: AddressPolicy.fromSetting('127.0.0.1'), guess: localGuess });
    try {
      const answer = await viaProxy(proxy, `${site.url}/ok`, { connection: 'x-secret', 'x-secret': '1', 'x-kept': '2', 'proxy-authorization': 'a' });
      assert.equal(answer.status, 200);
      assert.equal(answer.body, 'hello');
      assert.equal(answer.headers['x-from'], 'target');
      assert.equal(answer.headers['x-hop'], undefined);
      const headers = seen.at(-1)!;
      assert.equal(headers['x-kept'], '2');
      assert.equal(headers['x-secret'], undefined);
      assert.equal(headers['proxy-authorization'], undefined);
      assert.deepEqual(proxy.refused, []);
    } finally {
      await proxy.close();
    }
  });

  test('refuses a private address with 403, never connecting, and records why', async () => {
    const proxy = await startProxy({ policy: AddressPolicy.fromSetting(''), guess: localGuess });
    try {
      const hits = site.hits.length;
      const answer = await viaProxy(proxy, `${site.url}/ok`);
      assert.equal(answer.status, 403);
      assert.equal(site.hits.length, hits);
      assert.equal(proxy.failureFor(new URL(`${site.url}/ok`))?.error.code, 'EFORBIDDENURL');
      assert.equal(proxy.refused.length, 1);
    } finally {
      await proxy.close();
    }
  });

  test('checks names on the address they resolve to (a public-looking name that points at loopback)', async () => {
    const resolver = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const proxy = await startProxy({ policy: AddressPolicy.fromSetting(''), resolver, guess: localGuess });
    try {
      const hits = site.hits.length;
      assert.equal((await viaProxy(proxy, `http://rebind.example:${site.port}/ok`)).status, 403);
      assert.match(await tunnel(proxy, `rebind.example:${site.port}`), /^HTTP\/1\.1 403/);
      assert.equal(site.hits.length, hits);
    } finally {
      await proxy.close();
    }
  });

  test('CONNECT opens a tunnel to an allowed address and refuses a private one', async () => {
    const open = await startProxy({ policy: AddressPolicy.fromSetting('127.0.0.1'), guess: localGuess });
    const closed = await startProxy({ policy: AddressPolicy.fromSetting(''), guess: localGuess });
    try {
      const through = await tunnel(open, `127.0.0.1:${site.port}`);
      assert.match(through, /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK[\s\S]*tunnelled$/);
      const hits = site.hits.length;
      assert.match(await tunnel(closed, `127.0.0.1:${site.port}`), /^HTTP\/1\.1 403/);
      assert.match(await tunnel(closed, `[::1]:${site.port}`), /^HTTP\/1\.1 403/);
      assert.equal(site.hits.length, hits);
      assert.equal(closed.failureFor(new URL(`https://127.0.0.1:${site.port}/`))?.error.code, 'EFORBIDDENURL');
    } finally {
      await open.close();
      await closed.close();
    }
  });

  test('refuses bad ports, plain and tunnelled, even on an exempt host', async () => {
    const proxy = await startProxy({ policy: AddressPolicy.fromSetting('127.0.0.1'), guess: localGuess });
    try {
      for (const port of [25, 6379]) {
        assert.equal((await viaProxy(proxy, `http://127.0.0.1:${port}/`)).status, 403);
        assert.match(await tunnel(proxy, `127.0.0.1:${port}`), /^HTTP\/1\.1 403/);
        assert.equal(proxy.failureFor(new URL(`https://127.0.0.1:${port}/`))?.error.code, 'EFORBIDDENURL');
      }
    } finally {
      await proxy.close();
    }
  });

  test('an unreachable target is 502 and recorded as EFETCH', async () => {
    const resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    const proxy = await startProxy({ policy: AddressPolicy.fromSetting(''), resolver, guess: localGuess });
    try {
      assert.equal((await viaProxy(proxy, 'http://nowhere.example/')).status, 502);
      const failure = proxy.failureFor(new URL('http://nowhere.example/'));
      assert.equal(failure?.error.code, 'EFETCH');
      assert.match(failure?.error.message ?? '', /could not resolve host/);
    } finally {
      await proxy.close();
    }
  });

  test('is not an origin server: a request that is not absolute-form is refused', async () => {
    const proxy = await startProxy({ policy: AddressPolicy.fromSetting('127.0.0.1'), guess: localGuess });
    try {
      assert.equal((await viaProxy(proxy, '/ok')).status, 400);
    } finally {
      await proxy.close();
    }
  });

  test('offline refuses everything, exempt or not', async () => {
    const proxy = await startProxy({ policy: AddressPolicy.fromSetting('127.0.0.1'), offline: true });
    try {
      const hits = site.hits.length;
      assert.equal((await viaProxy(proxy, `${site.url}/ok`)).status, 403);
      assert.match(await tunnel(proxy, `127.0.0.1:${site.port}`), /^HTTP\/1\.1 403/);
      assert.equal(site.hits.length, hits);
    } finally {
      await proxy.close();
    }
  });
});
