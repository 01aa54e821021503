/**
 * `/mcp` on the local service, driven by the SDK's own client (Client + StreamableHTTPClientTransport): the protocol's
 * initialisation and tool listing, each tool on pages of 127.0.0.1, and the doors the API has (keys, rate limit,
 * address guard, timeouts, access log) plus the transport's own (Origin, method).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AccessRecord } from '../../lib/http/access-log.ts';
import { MARKDOWN_DEFAULT_CHARS } from '../../lib/mcp/tools.ts';
import type { TestServer } from '../helpers/server.ts';
import { startService, type Service } from '../helpers/service.ts';
import { call, connect, PARAGRAPH, startPages, textOf } from './fixtures.ts';

let pages: TestServer;
let service: Service;
let client: Client;
const records: AccessRecord[] = [];

before(async () => {
  pages = await startPages();
  service = await startService({ env: { GLANCE_MCP_IMAGE_MAX_BYTES: '200000' }, onAnswered: (record) => void records.push(record) });
  client = await connect(`${service.url}/mcp`);
});
after(async () => {
  await client?.close();
  await service?.close();
  await pages?.close();
});

describe('the protocol', () => {
  test('initialises as Glance, stateless: no session id', () => {
    assert.equal(client.getServerVersion()?.name, 'glance');
    assert.ok(client.getServerCapabilities()?.tools);
    assert.match(client.getInstructions() ?? '', /markdown/);
  });

  test('lists the three tools, read-only and open-world, with their input schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ['extract', 'markdown', 'screenshot']);
    for (const tool of tools) {
      assert.deepEqual([tool.annotations?.readOnlyHint, tool.annotations?.openWorldHint, tool.annotations?.destructiveHint], [true, true, false]);
      assert.deepEqual(tool.inputSchema.required, ['url']);
    }
    const [extract, markdown, screenshot] = tools.map((tool) => tool.inputSchema.properties as Record<string, any>);
    assert.deepEqual(extract!.palette.type, 'boolean');
    assert.ok(extract!.data.additionalProperties, 'data takes fields of any name');
    assert.equal(markdown!.maxCharacters.default, MARKDOWN_DEFAULT_CHARS);
    assert.equal(markdown!.screenshot, undefined);
    assert.ok(screenshot!.screenshot.anyOf[1].properties.fullPage);
  });

  test('GET answers 405 (no event stream), a page elsewhere 403, by Origin', async () => {
    const get = await fetch(`${service.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.equal(((await get.json()) as any).code, 'EMETHOD');
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' };
    const rebound = await fetch(`${service.url}/mcp`, { ...init, headers: { ...init.headers, origin: 'http://evil.example' } });
    assert.equal(rebound.status, 403);
    assert.equal(((await rebound.json()) as any).code, 'EFORBIDDENORIGIN');
    const local = await fetch(`${service.url}/mcp`, { ...init, headers: { ...init.headers, origin: 'http://localhost:6274' } });
    assert.equal(local.status, 400, 'a loopback page passes the Origin check, then the transport reads the body');
  });

  test('a protocol version the SDK does not speak is refused with 400', async () => {
    const response = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '1999-01-01' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(response.status, 400);
  });
});

describe('the tools', () => {
  test('extract: the JSON API\'s data object, as structured content, with custom data rules', async () => {
    const result = await call(client, 'extract', { url: `${pages.url}/article`, data: { lead: { selector: '.lead', attr: 'text' } } });
    assert.equal(result.isError, undefined, textOf(result));
    const data = result.structuredContent as Record<string, unknown>;
    assert.deepEqual([data.title, data.description, data.lang, data.lead], ['The article', 'What it says.', 'en', 'First words.']);
    assert.deepEqual(JSON.parse(textOf(result)), data);
    const api = await service.json(`url=${encodeURIComponent(`${pages.url}/article`)}&data.lead.selector=.lead&data.lead.attr=text`);
    assert.deepEqual(api.body.data, data, 'the same answer as the JSON API');
  });

  test('markdown: the page as Markdown, without its navigation; a selector reads one element', async () => {
    const whole = await call(client, 'markdown', { url: `${pages.url}/article` });
    assert.match(textOf(whole), /# The article\n\nFirst words\.\n\n- One\n- Two/);
    assert.doesNotMatch(textOf(whole), /Home · About/);
    const part = await call(client, 'markdown', { url: `${pages.url}/article`, selector: 'ul' });
    assert.equal(textOf(part), '- One\n- Two');
  });

  test('markdown past maxCharacters is cut at a block boundary, and says so', async () => {
    const result = await call(client, 'markdown', { url: `${pages.url}/long`, maxCharacters: 1000 });
    const text = textOf(result);
    const [kept, marker] = text.split('\n\n[Glance cut this Markdown here: ');
    assert.ok(marker, text.slice(-300));
    assert.ok(kept!.length <= 1000 && kept!.length > 500, `kept ${kept!.length}`);
    assert.ok(kept!.endsWith(PARAGRAPH.trim()), 'the last paragraph kept is whole');
    const summary = result.structuredContent as { truncated: boolean; characters: number; kept: number };
    assert.equal(summary.truncated, true);
    assert.ok(summary.characters > 30_000);
    assert.match(marker!, new RegExp(`^${summary.kept} of ${summary.characters} characters shown`));
  });

  test('screenshot: the image, its CDN address (which serves it) and its dimensions', async () => {
    const result = await call(client, 'screenshot', { url: `${pages.url}/article`, screenshot: { type: 'png' } });
    assert.equal(result.isError, undefined, textOf(result));
    const image = result.content.find((content) => content.type === 'image');
    assert.ok(image?.type === 'image');
    assert.equal(image.mimeType, 'image/png');
    const described = result.structuredContent as any;
    assert.deepEqual([described.width, described.height, described.image.resized], [2560, 1600, false]);
    const served = Buffer.from(await (await fetch(described.url)).arrayBuffer());
    assert.deepEqual(served, Buffer.from(image.data, 'base64'));
  });

  test('screenshot past the byte bound: a smaller JPEG rendition within it; the address keeps the capture', async () => {
    const result = await call(client, 'screenshot', { url: `${pages.url}/noise` });
    assert.equal(result.isError, undefined, textOf(result));
    const image = result.content.find((content) => content.type === 'image');
    assert.ok(image?.type === 'image');
    const bytes = Buffer.from(image.data, 'base64');
    const described = result.structuredContent as any;
    assert.ok(described.size > 200_000, `the capture is ${described.size} bytes`);
    assert.ok(bytes.length <= 200_000, `the rendition is ${bytes.length} bytes`);
    assert.deepEqual([image.mimeType, described.image.resized, described.image.bytes], ['image/jpeg', true, bytes.length]);
    assert.ok(described.image.width < described.width);
    assert.equal(Math.round((described.image.width / described.image.height) * 10), Math.round((described.width / described.height) * 10));
  });
});

describe('failures are tool errors, with Glance\'s code', () => {
  test('a page sending its reader to the metadata address: EFORBIDDENURL', async () => {
    const result = await call(client, 'extract', { url: `${pages.url}/hostile` });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^EFORBIDDENURL: /);
    assert.equal((result.structuredContent as any).code, 'EFORBIDDENURL');
  });

  test('a page that never answers: ETIMEOUT within the timeout asked for', async () => {
    const started = Date.now();
    const result = await call(client, 'markdown', { url: `${pages.url}/never`, timeout: '2s' });
    assert.match(textOf(result), /^ETIMEOUT: /);
    assert.ok(Date.now() - started < 6000, `answered after ${Date.now() - started} ms`);
  });

  test('arguments outside the schema: EINVALQUERY, naming them', async () => {
    const result = await call(client, 'screenshot', { url: `${pages.url}/article`, fullpage: true });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^EINVALQUERY: .*additional properties/);
  });

  test('an unknown tool is the protocol\'s error', async () => {
    await assert.rejects(call(client, 'delete', { url: 'https://example.com' }), /Unknown tool/);
  });
});

test('each MCP request and each tool query leaves an access record', async () => {
  records.length = 0;
  await call(client, 'extract', { url: `${pages.url}/article`, ttl: '1m' });
  const mcp = records.find((record) => record.method === 'POST');
  const query = records.find((record) => record.origin === 'mcp');
  assert.deepEqual([mcp?.status, mcp?.path], [200, '/mcp']);
  assert.deepEqual([query?.status, query?.target], [200, pages.url]);
});

describe('keys and limits', () => {
  let keyed: Service;
  before(async () => {
    keyed = await startService({ env: { GLANCE_API_KEYS: 'k1,k2', GLANCE_RATE_LIMIT: '4', GLANCE_RATE_LIMIT_WINDOW: '1h' } });
  });
  after(() => keyed?.close());

  test('without a key the endpoint answers 401 EAUTH; with one, as Bearer or x-api-key, it serves', async () => {
    await assert.rejects(connect(`${keyed.url}/mcp`), /"code":"EAUTH"/);
    const bearer = await connect(`${keyed.url}/mcp`, { requestInit: { headers: { authorization: 'Bearer k1' } } });
    assert.equal((await bearer.listTools()).tools.length, 3);
    await bearer.close();
    const header = await connect(`${keyed.url}/mcp`, { requestInit: { headers: { 'x-api-key': 'k2' } } });
    assert.equal((await header.listTools()).tools.length, 3);
    await header.close();
  });

  test('the rate limit counts the MCP requests of a key: past it, 429 ERATE', async () => {
    const ask = () =>
      fetch(`${keyed.url}/mcp`, {
        method: 'POST',
        headers: { 'x-api-key': 'k1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    let last = await ask();
    while (last.status === 200) last = await ask();
    assert.equal(last.status, 429);
    assert.equal(((await last.json()) as any).code, 'ERATE');
    assert.equal(last.headers.get('x-rate-limit-remaining'), '0');
  });
});
