/**
 * docs/openapi.json against real answers of the local service on 127.0.0.1: successes (metadata, a screenshot and
 * its stored file, named and not, each kind of embed, a proxied image, the playground page), the preflight, HEAD,
 * /health, /openapi.json and a failure of every status the function answers, each checked against the document's
 * schema for its operation and status (tests/openapi/conformance.ts). The last test proves that every status the
 * document gives met a real answer here, so a status documented without one fails.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLocalServer } from '../../functions/local.ts';
import { createApp } from '../../lib/app.ts';
import { DOCS_URL, loadConfig } from '../../lib/config.ts';
import { erateBody } from '../../stacks/rate-limit.ts';
import { unusedPort, html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { q, startService, TEST_BROWSER_ARGS, type Service } from '../helpers/service.ts';
import { photoLike, pngOf } from '../palette/images.ts';
import { png } from '../ping/fixtures.ts';
import { covered, documentedStatuses, DOCUMENT, problemsOf, realAnswer, type RealAnswer } from './conformance.ts';

const ARTICLE = `<!doctype html><html lang="en"><head>
<title>The article</title>
<meta property="og:title" content="The article">
<meta property="og:description" content="What the article says.">
<meta property="og:image" content="/cover.png">
<meta property="og:site_name" content="Example News">
<meta name="author" content="Jane Doe">
<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">
<link rel="icon" href="/icon.png" sizes="32x32">
</head><body><h1>The <em>article</em></h1><p>${'Plenty of server-rendered text. '.repeat(20)}</p></body></html>`;

const image =
  (body: Buffer): Route =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) }).end(body);

/** Answers after `?ms=` milliseconds (the timer dies with the connection). */
/** What a browser's navigation sends: the bare address answers it the playground page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** A page whose og:image is the given path of the same site. */
const pictured = (path: string): Route => html(`<!doctype html><title>Pictured</title><meta property="og:image" content="${path}">`);

const slow: Route = (req, res) => {
  const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 3000);
  const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Late</title>'), ms);
  res.once('close', () => clearTimeout(timer));
};

function assertConforms(answer: RealAnswer): void {
  assert.deepEqual(problemsOf(answer), [], `${answer.method} ${answer.path} ${answer.status}: ${answer.body.slice(0, 300)}`);
}

describe('real answers match docs/openapi.json', () => {
  let site: TestServer;
  let service: Service;
  /** API keys, a 2 kB page and embed.proxy limit and a storage folder that cannot be created: EAUTH, ETOOLARGE, EFATAL. */
  let strict: Service;
  /** One request per hour and client: the local service's own ERATE. */
  let limited: Service;
  let blocker: string;
  const pixel = png(8, 8);
  before(async () => {
    site = await startServer({
      '/article': html(ARTICLE),
      '/cover.png': image(pngOf(1200, 630, photoLike)),
      '/icon.png': image(png(32, 32)),
      '/loop': (_req, res) => void res.writeHead(302, { location: '/loop' }).end(),
      '/slow': slow,
      '/big': html(`<title>Big</title><p>${'x'.repeat(8192)}</p>`),
      '/gone': html('<title>Not here</title>', {}, 404),
      '/pixel.png': image(pixel),
      '/pictured': pictured('/pixel.png'),
      '/pictured-large': pictured('/cover.png'),
      // A soft 404: the image address answers a page.
      '/pictured-page': pictured('/article'),
      '/player': html('<title>Player</title><link rel="alternate" type="application/json+oembed" href="/player.json">'),
      '/player.json': (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'video', html: '<iframe src="https://player.example/1"></iframe>' })),
    });
    service = await startService();
    blocker = join(await mkdtemp(join(tmpdir(), 'glance-openapi-')), 'blocker');
    await writeFile(blocker, 'a file where a folder should be');
    strict = await startService({
      env: {
        GLANCE_API_KEYS: 'key-one',
        GLANCE_MAX_BODY_BYTES: '2048',
        GLANCE_EMBED_PROXY_MAX_BYTES: '2048',
        GLANCE_STORAGE_DIR: join(blocker, 'assets'),
      },
    });
    limited = await startService({ env: { GLANCE_RATE_LIMIT: '1', GLANCE_RATE_LIMIT_WINDOW: '1h' } });
  });
  after(async () => {
    await Promise.all([service.close(), strict.close(), limited.close()]);
    await site.close();
    await rm(join(blocker, '..'), { recursive: true, force: true });
  });

  /** `/?query` on a service, checked against the document; answers the status and the parsed JSON body if any. */
  async function ask(on: Service, query: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
    const answer = await realAnswer('/', (init.method ?? 'GET').toUpperCase(), await on.request(query, init));
    assertConforms(answer);
    const json = answer.headers.get('content-type')?.startsWith('application/json') && answer.body !== '';
    return { status: answer.status, headers: answer.headers, body: json ? JSON.parse(answer.body) : answer.body };
  }

  const article = () => `${site.url}/article`;

  /** A stored file the service answers at `url`, checked against the document's path for it. */
  async function stored(url: string, path: '/{hash}.{extension}' | '/{hash}/{name}.{extension}'): Promise<RealAnswer> {
    const answer = await realAnswer(path, 'GET', await fetch(url));
    assertConforms(answer);
    return answer;
  }

  describe('successes', () => {
    test('metadata: the envelope with every default field', async () => {
      const { status, body } = await ask(service, q(article()));
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body.data).sort(), ['author', 'date', 'description', 'image', 'lang', 'logo', 'publisher', 'title', 'url']);
      assert.equal(body.data.image.width, 1200);
      assert.equal(body.data.logo.width, 32);
    });

    test('the same answer again, from the cache', async () => {
      const { status, headers } = await ask(service, q(article()));
      assert.equal(status, 200);
      assert.equal(headers.get('x-cache-status'), 'HIT');
    });

    test('audio, video, iframe, insights, palette and a custom rule: the other fields of data', async () => {
      const { status, body } = await ask(service, q(article(), 'audio&video&iframe&insights&insights.lighthouse=false&palette&data.heading.selector=h1&data.heading.attr=text&staleTtl=1m&ttl=1h'));
      assert.equal(status, 200);
      assert.equal(body.data.heading, 'The article');
      assert.ok(Array.isArray(body.data.insights.technologies));
      assert.match(body.data.image.background_color, /^#[0-9A-F]{6}$/);
    });

    test('a target that answers 404: still a success, its status in statusCode', async () => {
      const { status, body } = await ask(service, q(`${site.url}/gone`));
      assert.deepEqual([status, body.statusCode, body.data.title], [200, 404, 'Not here']);
    });

    test('a screenshot, and its stored file', async () => {
      const { status, body } = await ask(service, q(article(), 'screenshot&meta=false'));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual([body.data.screenshot.type, body.data.screenshot.width, body.data.screenshot.height], ['png', 2560, 1600]);
      assert.match(body.data.screenshot.url, /\/[0-9a-f]{64}\.png$/);
      const file = await stored(body.data.screenshot.url, '/{hash}.{extension}');
      assert.deepEqual([file.status, file.headers.get('content-type'), file.headers.get('content-disposition')], [200, 'image/png', null]);
    });

    test('a screenshot named by filename: its stored file is served under that name, as the document says', async () => {
      const { status, body } = await ask(service, q(article(), `screenshot&meta=false&filename=${encodeURIComponent('Café report.pdf')}`));
      assert.equal(status, 200, JSON.stringify(body));
      assert.match(body.data.screenshot.url, /\/[0-9a-f]{64}\/Caf%C3%A9%20report\.png$/);
      const file = await stored(body.data.screenshot.url, '/{hash}/{name}.{extension}');
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-disposition'), `inline; filename="Cafe report.png"; filename*=UTF-8''Caf%C3%A9%20report.png`);
    });

    test('embed of a URL: 302 to it; of a string: text/plain; of an object: JSON; of rule fields: Markdown and HTML', async () => {
      const redirect = await ask(service, q(article(), 'embed=image.url'));
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.get('location'), `${site.url}/cover.png`);
      const text = await ask(service, q(article(), 'embed=title'));
      assert.deepEqual([text.headers.get('content-type'), text.body], ['text/plain; charset=utf-8', 'The article']);
      const object = await ask(service, q(article(), 'embed=image'));
      assert.equal(object.body.url, `${site.url}/cover.png`);
      const markdown = await ask(service, q(article(), 'meta=false&data.content.attr=markdown&embed=content'));
      assert.match(markdown.headers.get('content-type') ?? '', /^text\/markdown/);
      const markup = await ask(service, q(article(), 'meta=false&data.heading.selector=h1&data.heading.attr=html&embed=heading'));
      assert.deepEqual([markup.headers.get('content-type'), markup.body], ['text/html; charset=utf-8', 'The <em>article</em>']);
    });

    test('embed=iframe.html: a player document, framable under its own sandbox', async () => {
      const player = await ask(service, q(`${site.url}/player`, 'meta=false&iframe&embed=iframe.html'));
      assert.equal(player.status, 200);
      assert.equal(player.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(player.body, /<iframe src="https:\/\/player\.example\/1"><\/iframe>/);
      assert.match(player.headers.get('content-security-policy') ?? '', /^sandbox allow-scripts /);
    });

    test('embed.proxy: the image\'s own bytes, with its type and the headers that let any site read it', async () => {
      const { status, headers } = await ask(service, q(`${site.url}/pictured`, 'embed=image.url&embed.proxy'));
      assert.equal(status, 200);
      assert.deepEqual([headers.get('content-type'), headers.get('content-length')], ['image/png', String(pixel.length)]);
      assert.equal(headers.get('access-control-allow-origin'), '*');
      assert.match(headers.get('content-security-policy') ?? '', /; sandbox;/);
    });

    test('the playground: the bare address, from a browser, answers its page', async () => {
      const { status, headers, body } = await ask(service, '', { headers: { accept: BROWSER_ACCEPT } });
      assert.equal(status, 200);
      assert.deepEqual([headers.get('content-type'), headers.get('vary'), headers.get('cache-control')], ['text/html; charset=utf-8', 'accept', 'no-store']);
      assert.match(headers.get('content-security-policy') ?? '', /script-src 'sha256-/);
      assert.match(body, /^<!doctype html>/i);
    });

    test('HEAD: the status and headers without a body, for an answer, a redirect and a failure', async () => {
      assert.equal((await ask(service, q(article()), { method: 'HEAD' })).status, 200);
      assert.equal((await ask(service, q(article(), 'embed=image.url'), { method: 'HEAD' })).status, 302);
      assert.equal((await ask(service, 'ttl=1s', { method: 'HEAD' })).status, 400);
    });

    test('304: GET and HEAD naming the answer\'s etag in If-None-Match', async () => {
      const etag = (await ask(service, q(article()))).headers.get('etag') ?? '';
      for (const method of ['GET', 'HEAD']) {
        const answer = await ask(service, q(article()), { method, headers: { 'if-none-match': etag } });
        assert.deepEqual([answer.status, answer.headers.get('etag')], [304, etag], method);
      }
    });

    test('OPTIONS: the CORS preflight', async () => {
      assert.equal((await ask(service, q(article()), { method: 'OPTIONS' })).status, 204);
    });
  });

  describe('failures, one of each status', () => {
    const expectCode = async (on: Service, query: string, status: number, code: string, init: RequestInit = {}) => {
      const answer = await ask(on, query, init);
      assert.deepEqual([answer.status, answer.body.code], [status, code], JSON.stringify(answer.body));
    };

    test('400: invalid url, query, ttl, staleTtl, overlay background, data rule, embed; not offered; too many redirects; a page range past the print', async () => {
      await expectCode(service, 'meta=false', 400, 'EINVALURL');
      await expectCode(service, q(article(), 'timeout=soon'), 400, 'EINVALQUERY');
      await expectCode(service, q(article(), 'ttl=1s'), 400, 'EINVALTTL');
      await expectCode(service, q(article(), 'ttl=1h&staleTtl=2h'), 400, 'EINVALSTTL');
      await expectCode(service, q(article(), 'screenshot.overlay.background=javascript%3Aalert(1)'), 400, 'EINVALOVERLAYBG');
      await expectCode(service, q(article(), 'data.x.selector=%3A%3A%3A'), 400, 'EINVALDATA');
      await expectCode(service, q(article(), 'proxy=http%3A%2F%2Fproxy.example'), 400, 'EUNSUPPORTED');
      await expectCode(service, q(article(), 'embed=audio.url'), 400, 'EINVALEMBED');
      await expectCode(service, q(`${site.url}/loop`), 400, 'EMAXREDIRECTS');
      await expectCode(service, q(article(), 'pdf.pageRanges=90&meta=false'), 400, 'EPAGERANGE');
    });

    test('401: no API key where keys are required', async () => {
      await expectCode(strict, q(article()), 401, 'EAUTH');
    });

    test('403: a target on a non-public address', async () => {
      await expectCode(service, q('http://169.254.169.254/latest/meta-data/'), 403, 'EFORBIDDENURL');
    });

    test('405: a method other than GET, HEAD and OPTIONS', async () => {
      await expectCode(service, q(article()), 405, 'EMETHOD', { method: 'POST' });
    });

    test('413: a page past the size limit', async () => {
      await expectCode(strict, q(`${site.url}/big`), 413, 'ETOOLARGE', { headers: { 'x-api-key': 'key-one' } });
    });

    test('413: an embed.proxy file past its own limit', async () => {
      await expectCode(strict, q(`${site.url}/pictured-large`, 'embed=image.url&embed.proxy'), 413, 'ETOOLARGE', { headers: { 'x-api-key': 'key-one' } });
    });

    test('500: storage that fails under a screenshot', async () => {
      await expectCode(strict, q(article(), 'screenshot&meta=false'), 500, 'EFATAL', { headers: { 'x-api-key': 'key-one' } });
    });

    test('502: a target that refuses the connection', async () => {
      await expectCode(service, q(`http://127.0.0.1:${await unusedPort()}/`), 502, 'EFETCH');
    });

    test('502: embed.proxy of an image address that answers an HTML page', async () => {
      await expectCode(service, q(`${site.url}/pictured-page`, 'ping=false&embed=image.url&embed.proxy'), 502, 'ENOTMEDIA');
    });

    test('503: too little of the budget left for the browser', async () => {
      await expectCode(service, q(article(), 'screenshot&meta=false&timeout=1s&force'), 503, 'EBUSY');
    });

    test('504: a page slower than the timeout', async () => {
      await expectCode(service, q(`${site.url}/slow?ms=3000`, 'timeout=1s'), 504, 'ETIMEOUT');
    });

    test('508: a request sent by a Glance', async () => {
      await expectCode(service, q(article()), 508, 'ELOOP', { headers: { 'x-glance-hop': '2' } });
    });

    test('429: the local service over its own rate limit, with Microlink\'s headers', async () => {
      await ask(limited, q(article(), 'ttl=1s'));
      const refused = await ask(limited, q(article(), 'ttl=1s'));
      assert.deepEqual([refused.status, refused.body.code, refused.headers.get('x-rate-limit-remaining')], [429, 'ERATE', '0']);
      assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    });

    test('429: deployed, the edge answers it (CloudFront, from the page stacks/rate-limit.ts renders), never the function', () => {
      const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'retry-after': '60' });
      assertConforms({ path: '/', method: 'GET', status: 429, headers, body: erateBody(DOCS_URL) });
    });
  });

  describe('/mcp', () => {
    const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const INITIALIZE = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'conformance', version: '1' } },
    });
    const mcp = async (on: Service, init: RequestInit, status: number) => {
      const method = init.method ?? 'GET';
      const answer = await realAnswer('/mcp', method, await fetch(`${on.url}/mcp`, init));
      assertConforms(answer);
      assert.equal(answer.status, status, answer.body.slice(0, 300));
      return answer;
    };

    test('POST: 200 JSON-RPC, 202 for a notification, 400 and 406 the transport\'s refusals', async () => {
      const answer = await mcp(service, { method: 'POST', headers: JSON_RPC, body: INITIALIZE }, 200);
      assert.equal(JSON.parse(answer.body).result.serverInfo.name, 'glance');
      await mcp(service, { method: 'POST', headers: JSON_RPC, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }, 202);
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await mcp(service, { method: 'POST', headers: { ...JSON_RPC, 'mcp-protocol-version': '1999-01-01' }, body: list }, 400);
      await mcp(service, { method: 'POST', headers: { ...JSON_RPC, accept: 'application/json' }, body: list }, 406);
    });

    test('POST: 401 without a key, 403 from a page elsewhere, 413 past the body bound, 429 past the rate limit', async () => {
      await mcp(strict, { method: 'POST', headers: JSON_RPC, body: INITIALIZE }, 401);
      await mcp(service, { method: 'POST', headers: { ...JSON_RPC, origin: 'https://elsewhere.example' }, body: INITIALIZE }, 403);
      await mcp(service, { method: 'POST', headers: JSON_RPC, body: `[${' '.repeat(1024 * 1024)}]` }, 413);
      await fetch(`${limited.url}/mcp`, { method: 'POST', headers: JSON_RPC, body: INITIALIZE });
      await mcp(limited, { method: 'POST', headers: JSON_RPC, body: INITIALIZE }, 429);
    });

    test('GET and DELETE: 405; OPTIONS: the preflight', async () => {
      await mcp(service, { headers: { accept: 'text/event-stream' } }, 405);
      await mcp(service, { method: 'DELETE' }, 405);
      await mcp(service, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' } }, 204);
    });
  });

  describe('the other paths', () => {
    const get = async (path: string) => {
      const answer = await realAnswer(path, 'GET', await fetch(`${service.url}${path}`));
      assertConforms(answer);
      return answer;
    };

    test('GET /health: 200 ok', async () => {
      assert.equal((await get('/health')).status, 200);
    });

    test('GET /openapi.json: 200, the document itself', async () => {
      const answer = await get('/openapi.json');
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.body), DOCUMENT);
    });

    test('GET /health: 503 once the service is stopping', async () => {
      // A service of its own, shut down with a request in flight: during the grace period a connection that had
      // begun its request before (so it was not idle, and stays open) asks for /health.
      const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: 'off', PORT: '0' });
      const local = createLocalServer(createApp(config, { browserArgs: TEST_BROWSER_ARGS }), { graceMs: 5000 });
      await new Promise<void>((resolve) => local.server.listen(0, '127.0.0.1', resolve));
      const { port } = local.server.address() as AddressInfo;
      try {
        const inFlight = fetch(`http://127.0.0.1:${port}/?${q(`${site.url}/slow?ms=3000&for=health`)}`).then((response) => response.text());
        while (!site.hits.some((hit) => hit === '/slow?ms=3000&for=health')) await new Promise((resolve) => setTimeout(resolve, 20));
        const socket = connect(port, '127.0.0.1');
        const received: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => received.push(chunk));
        const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        await new Promise<void>((resolve) => socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', () => resolve()));
        // Time for the service to read the request's first bytes: from then on its connection is not idle.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const stopped = local.shutdown();
        socket.write('Connection: close\r\n\r\n');
        await ended;
        const [head = '', body = ''] = Buffer.concat(received).toString('utf8').split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
        const answer = { path: '/health', method: 'GET', status: Number(statusLine.split(' ')[1]), headers, body };
        assertConforms(answer);
        assert.equal(answer.status, 503);
        await inFlight;
        await stopped;
      } finally {
        await local.shutdown();
      }
    });
  });

  test('every status the document gives met a real answer', () => {
    assert.deepEqual(documentedStatuses().filter((status) => !covered.has(status)), []);
  });
});
