import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { Budget } from '../../lib/time/budget.ts';
import { fetchPage, openResponse } from '../../lib/fetch/index.ts';
import { startServer, type Route, type TestServer } from '../helpers/server.ts';
import { options, rejectsWith } from './setup.ts';

const PAGE = `<!doctype html><title>Compressed</title>${'<p>Lorem ipsum dolor sit amet.</p>'.repeat(200)}`;

const encoded =
  (encoding: string, body: Buffer): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding }).end(body);

/** Streams `total` bytes in 64 KB chunks, respecting backpressure, until done or the client goes away. */
const stream =
  (total: number, headers: Record<string, string | number> = {}): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', ...headers });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  };

const MB = 1024 * 1024;
let server: TestServer;

before(async () => {
  server = await startServer({
    '/gzip': encoded('gzip', zlib.gzipSync(PAGE)),
    '/x-gzip': encoded('x-gzip', zlib.gzipSync(PAGE)),
    '/deflate': encoded('deflate', zlib.deflateSync(PAGE)),
    '/raw-deflate': encoded('deflate', zlib.deflateRawSync(PAGE)),
    '/br': encoded('br', zlib.brotliCompressSync(PAGE)),
    '/layered': encoded('deflate, gzip', zlib.gzipSync(zlib.deflateSync(PAGE))),
    '/broken-gzip': encoded('gzip', Buffer.from('this is not gzip at all, just text')),
    '/zstd': encoded('zstd', Buffer.from('whatever')),
    '/bomb': encoded('gzip', zlib.gzipSync(Buffer.alloc(50 * MB))),
    '/big-known': stream(50 * MB, { 'content-length': 50 * MB }),
    '/big-chunked': stream(50 * MB),
    '/silent': () => undefined,
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('.'), 30);
      res.on('close', () => clearInterval(timer));
    },
    '/slow-redirect': (_req, res) => void setTimeout(() => res.writeHead(302, { location: '/silent' }).end(), 100),
  });
});

after(() => server.close());

describe('content encodings', () => {
  for (const path of ['/gzip', '/x-gzip', '/deflate', '/raw-deflate', '/br', '/layered']) {
    test(`${path.slice(1)} bodies are decoded`, async () => {
      const page = await fetchPage(`${server.url}${path}`, options());
      assert.equal(page.body.toString(), PAGE);
    });
  }

  test('a broken gzip body is EFETCH saying it is corrupt', async () => {
    const error = await rejectsWith(fetchPage(`${server.url}/broken-gzip`, options()), 'EFETCH');
    assert.match(error.message, /gzip body is corrupt/);
  });

  test('an encoding we did not ask for is EFETCH', async () => {
    const error = await rejectsWith(fetchPage(`${server.url}/zstd`, options()), 'EFETCH');
    assert.match(error.message, /unsupported content encoding \(zstd\)/);
  });
});

describe('size limit', () => {
  for (const path of ['/big-known', '/big-chunked', '/bomb']) {
    test(`${path.slice(1)}: 50 MB is ETOOLARGE at a 1 MB limit, fast`, async () => {
      const started = performance.now();
      const error = await rejectsWith(fetchPage(`${server.url}${path}`, options({ maxBytes: MB })), 'ETOOLARGE');
      assert.equal(error.statusCode, 413);
      assert.ok(performance.now() - started < 1000, 'stops reading at the limit');
    });
  }

  test('a content-length over the limit fails before any body is read', async () => {
    await rejectsWith(openResponse(`${server.url}/big-known`, options({ maxBytes: MB })), 'ETOOLARGE');
  });

  test('a body exactly at the limit is fine', async () => {
    const page = await fetchPage(`${server.url}/gzip`, options({ maxBytes: PAGE.length }));
    assert.equal(page.body.length, PAGE.length);
  });
});

describe('budget', () => {
  const budgetMs = 400;
  const slack = 250;

  for (const path of ['/silent', '/trickle', '/slow-redirect']) {
    test(`${path.slice(1)} target ends in ETIMEOUT within the budget`, async () => {
      const started = performance.now();
      const error = await rejectsWith(fetchPage(`${server.url}${path}`, options({ budget: new Budget(budgetMs) })), 'ETIMEOUT');
      const elapsed = performance.now() - started;
      assert.equal(error.statusCode, 504);
      assert.ok(elapsed >= budgetMs - 20 && elapsed < budgetMs + slack, `took ${Math.round(elapsed)} ms`);
    });
  }

  test('a resolver that never answers ends in ETIMEOUT', async () => {
    const resolver = () => new Promise<never>(() => undefined);
    const started = performance.now();
    await rejectsWith(fetchPage('http://hangs.example/', options({ budget: new Budget(budgetMs), resolver })), 'ETIMEOUT');
    assert.ok(performance.now() - started < budgetMs + slack);
  });

  test('a spent budget fails at once', async () => {
    const spent = new Budget(0);
    await rejectsWith(fetchPage(`${server.url}/gzip`, options({ budget: spent })), 'ETIMEOUT');
  });
});

describe('openResponse', () => {
  test('resolves at the headers; the body streams and can be cancelled', async () => {
    const response = await openResponse(`${server.url}/big-chunked`, options({ maxBytes: 100 * MB }));
    assert.equal(response.statusCode, 200);
    let read = 0;
    for await (const chunk of response.body) {
      read += chunk.length;
      if (read >= 256 * 1024) break;
    }
    assert.ok(read >= 256 * 1024 && read < 50 * MB);
    response.cancel();
  });

  test('cancel before reading releases the response quietly', async () => {
    const response = await openResponse(`${server.url}/trickle`, options({ budget: new Budget(5000) }));
    response.cancel();
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    assert.ok(chunks.length <= 1);
  });
});
