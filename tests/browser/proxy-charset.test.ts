/**
 * The proxy labels an undeclared HTML document with the charset the fetcher reads it in (issue 25), passing its
 * bytes unchanged, and leaves every other answer's Content-Type as it came: a page's fetch() or XHR, and documents
 * past the proxy's cap, included.
 */
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, after, before, beforeEach, describe, test } from 'node:test';
import { decodeHtml } from '../../lib/fetch/charset.ts';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import { startProxy, type GuardedProxy } from '../../lib/browser/proxy.ts';
import { startServer, type Route, type TestServer } from '../helpers/server.ts';
import { localGuess } from '../helpers/charset.ts';

const UTF8 = Buffer.from('<!doctype html><title>Café — naïve</title><p>Café — naïve</p>');
const CP1252 = Buffer.from('<!doctype html><title>Caf\xe9 \x97 na\xefve</title><p>Caf\xe9</p>', 'latin1');
/** Past the sniffed head, with a character split across its end and the chunks the server writes. */
const LONG = Buffer.from(`<!doctype html><p>${'é'.repeat(100_000)}</p>`);

const bytes = (body: Buffer, headers: Record<string, string>): Route => (_req, res) => void res.writeHead(200, headers).end(body);

/** /cp1252's Content-Type labelled by the proxy. */
const LABELLED = `text/html;foo=bar;charset=${decodeHtml(CP1252, undefined).charset}`;

/** How Chromium asks for a page to a potentially trustworthy URL (it sends no Sec-Fetch-* to others). */
const DOCUMENT = { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' };

/** A GET (or HEAD) through the proxy, by default as a page's navigation; the answer once whole. */
function viaProxy(proxy: GuardedProxy, target: string, method = 'GET', headers: Record<string, string> = DOCUMENT): Promise<{ headers: IncomingMessage['headers']; body: Buffer }> {
  const { hostname, port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path: target, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the proxy declares the charset of undeclared HTML', () => {
  let site: TestServer;
  let proxy: GuardedProxy;
  before(async () => {
    site = await startServer({
      '/utf8': bytes(UTF8, { 'content-type': 'text/html' }),
      '/cp1252': bytes(CP1252, { 'content-type': 'Text/HTML;foo=bar' }),
      '/bogus': bytes(UTF8, { 'content-type': 'text/html; charset=no-such' }),
      '/gzip': bytes(gzipSync(LONG), { 'content-type': 'text/html', 'content-encoding': 'gzip' }),
      '/long': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        for (let at = 0; at < LONG.length; at += 1001) res.write(LONG.subarray(at, at + 1001));
        res.end();
      },
      '/declared': bytes(CP1252, { 'content-type': 'text/html; charset=windows-1252' }),
      '/meta': bytes(Buffer.concat([Buffer.from('<meta charset="iso-8859-1">'), CP1252]), { 'content-type': 'text/html' }),
      '/bom': bytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), UTF8]), { 'content-type': 'text/html' }),
      '/xhtml': bytes(UTF8, { 'content-type': 'application/xhtml+xml' }),
      '/plain': bytes(UTF8, { 'content-type': 'text/plain' }),
      '/zstd': bytes(UTF8, { 'content-type': 'text/html', 'content-encoding': 'zstd' }),
      '/corrupt': bytes(UTF8, { 'content-type': 'text/html', 'content-encoding': 'gzip' }),
      '/stalls': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).write(UTF8),
    });
  });
  // A proxy per test: each serves one page, whose sniffs it counts.
  beforeEach(async () => {
    proxy = await startProxy({ policy: AddressPolicy.fromSetting('127.0.0.1'), guess: localGuess });
  });
  afterEach(() => proxy.close());
  after(() => site?.close());

  test('an undeclared page gets the fetcher\'s charset, its bytes unchanged', async () => {
    for (const [path, type, body, decoded] of [
      ['/utf8', 'text/html', UTF8, UTF8],
      ['/cp1252', 'text/html;foo=bar', CP1252, CP1252],
      ['/bogus', 'text/html', UTF8, UTF8],
      ['/long', 'text/html', LONG, LONG],
      ['/gzip', 'text/html', gzipSync(LONG), LONG],
    ] as const) {
      const answer = await viaProxy(proxy, `${site.url}${path}`);
      assert.equal(answer.headers['content-type'], `${type};charset=${decodeHtml(decoded, undefined).charset}`, path);
      assert.ok(answer.body.equals(body), `${path}: the body changed`);
    }
    assert.equal((await viaProxy(proxy, `${site.url}/utf8`)).headers['content-type'], 'text/html;charset=utf-8');
  });

  test('a declared page, XHTML, text, a coding it cannot undo or a corrupt one, and HEAD keep their Content-Type', async () => {
    for (const [path, type, method] of [
      ['/declared', 'text/html; charset=windows-1252', 'GET'],
      ['/meta', 'text/html', 'GET'],
      ['/bom', 'text/html', 'GET'],
      ['/xhtml', 'application/xhtml+xml', 'GET'],
      ['/plain', 'text/plain', 'GET'],
      ['/zstd', 'text/html', 'GET'],
      ['/corrupt', 'text/html', 'GET'],
      ['/utf8', 'text/html', 'HEAD'],
    ] as const) {
      assert.equal((await viaProxy(proxy, `${site.url}${path}`, method)).headers['content-type'], type, `${method} ${path}`);
    }
    assert.ok((await viaProxy(proxy, `${site.url}/corrupt`)).body.equals(UTF8), 'a body that does not decode passes as it came');
  });

  test('a page that stalls before the sniffed head ends is still passed on, labelled by what came', async () => {
    const { hostname, port } = new URL(proxy.url);
    const first = await new Promise<{ type: string | undefined; chunk: Buffer }>((resolve, reject) => {
      const sent = request({ host: hostname, port, path: `${site.url}/stalls`, headers: DOCUMENT }, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve({ type: res.headers['content-type'], chunk });
          sent.destroy();
        });
      });
      sent.on('error', (error) => (sent.destroyed ? undefined : reject(error))).end();
    });
    assert.equal(first.type, 'text/html;charset=utf-8');
    assert.ok(first.chunk.equals(UTF8));
  });

  test('a frame is labelled; a page\'s fetch() or XHR is not', async () => {
    const type = async (headers: Record<string, string>): Promise<string | undefined> =>
      (await viaProxy(proxy, `${site.url}/cp1252`, 'GET', headers)).headers['content-type'];
    assert.equal(await type({ 'sec-fetch-dest': 'iframe', 'sec-fetch-mode': 'navigate' }), LABELLED);
    assert.equal(await type({ 'sec-fetch-dest': 'frame', 'sec-fetch-mode': 'navigate' }), LABELLED);
    // fetch() and XHR: Chromium names their destination `empty`, and a script cannot say otherwise.
    assert.equal(await type({ 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors', accept: 'text/html' }), 'Text/HTML;foo=bar');
    assert.equal(await type({ 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'no-cors' }), 'Text/HTML;foo=bar');
    // Plain http to a public host carries no Sec-Fetch-*: a navigation's Accept tells a document from fetch()'s `*/*`.
    assert.equal(await type({ accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }), LABELLED);
    assert.equal(await type({ accept: '*/*' }), 'Text/HTML;foo=bar');
    assert.equal(await type({}), 'Text/HTML;foo=bar');
  });

  test('past its cap of sniffed documents, the proxy passes them unlabelled', async () => {
    const types: (string | undefined)[] = [];
    for (let i = 0; i < 17; i += 1) types.push((await viaProxy(proxy, `${site.url}/cp1252`)).headers['content-type']);
    assert.deepEqual(types, [...Array<string>(16).fill(LABELLED), 'Text/HTML;foo=bar']);
  });
});
