/**
 * A server for the cache-hit benchmark, in a process of its own so the load generator does not share its event
 * loop. Prints one JSON line once it listens, then serves until killed.
 *   node --import tsx bench/lib/cache-server.ts glance             the local service, its cache primed with one answer
 *   node --import tsx bench/lib/cache-server.ts ceiling <file>     node:http answering the bytes and headers in <file>
 */
import './env.ts';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { html, startServer } from '../../tests/helpers/server.ts';
import { q, startService } from '../../tests/helpers/service.ts';

export interface Captured {
  url: string;
  statusCode: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

/** Set by node:http itself on every response; the rest of the HIT's headers are replayed as they were. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

const PAGE = `<!doctype html><html lang="en"><head><title>Cached page</title>
<meta name="description" content="An answer served from the cache."><meta property="og:site_name" content="Bench">
<meta name="author" content="Bench"><meta property="article:published_time" content="2024-05-01T10:00:00Z">
</head><body><p>${'Body text. '.repeat(80)}</p></body></html>`;

/** Run on SIGTERM before a normal exit (which also lets `--cpu-prof`, when profiling by hand, write its profile). */
let cleanup: () => Promise<void> = async () => undefined;
process.once('SIGTERM', () => void cleanup().finally(() => process.exit(0)));

const [mode, file] = process.argv.slice(2);
if (mode === 'glance') {
  const site = await startServer({ '/article': html(PAGE) });
  const service = await startService();
  cleanup = async () => {
    await service.close();
    await site.close();
  };
  // ping=false: the cached answer is what matters here, and the target has no media to check.
  const query = q(`${site.url}/article`, 'ping=false');
  await service.request(query).then((r) => r.arrayBuffer());
  const response = await service.request(query);
  const body = Buffer.from(await response.arrayBuffer());
  if (response.headers.get('x-cache-status') !== 'HIT') throw new Error(`expected a HIT, got ${response.headers.get('x-cache-status')}`);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!TRANSPORT.has(name)) headers[name] = value;
  });
  const captured: Captured = { url: `${service.url}/?${query}`, statusCode: response.status, headers, body: body.toString('base64') };
  process.stdout.write(`${JSON.stringify(captured)}\n`);
} else if (mode === 'ceiling' && file) {
  const captured = JSON.parse(readFileSync(file, 'utf8')) as Captured;
  const body = Buffer.from(captured.body, 'base64');
  const headers = { ...captured.headers, 'content-length': String(body.length) };
  const server = createServer((_req, res) => {
    res.writeHead(captured.statusCode, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/` })}\n`);
} else {
  throw new Error('usage: cache-server.ts glance | ceiling <file>');
}
