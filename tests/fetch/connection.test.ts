/**
 * The connection under the fetcher: kept alive across requests and redirect hops, never shared across address
 * policies, retried once when a pooled socket turns out dead, and let go on cancel or when the budget ends.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Budget } from '../../lib/time/budget.ts';
import { fetchPage, openResponse } from '../../lib/fetch/index.ts';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import { fixedResolver, options, rejectsWith } from './setup.ts';

/** Answers with the client port of the connection it arrived on, which names the connection. */
const whichConnection: Route = (req, res) => void res.writeHead(200).end(String(req.socket.remotePort));

let server: TestServer;
/** Server-side ends of the exchanges of /endless, to see the client let go. */
const endless: Array<Promise<void>> = [];

before(async () => {
  server = await startServer({
    '/which': whichConnection,
    '/small': html('<title>small</title>'),
    // The redirect names its own connection in the Location, and the page it leads to names the next one's.
    '/hop': (req, res) => void res.writeHead(302, { location: `/which?from=${req.socket.remotePort}` }).end('moved'),
    '/endless': (_req, res) => {
      endless.push(new Promise((resolve) => res.on('close', () => resolve())));
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024, 'a')), 5);
      res.on('close', () => clearInterval(timer));
    },
  });
});

after(() => server.close());

describe('keep-alive', () => {
  test('sequential requests share one connection', async () => {
    const resolver = fixedResolver('127.0.0.1');
    const first = await fetchPage(`${server.url}/which`, options({ resolver }));
    const second = await fetchPage(`${server.url}/which`, options({ resolver }));
    assert.equal(second.body.toString(), first.body.toString());
  });

  test('a redirect hop to the same origin goes over the same connection', async () => {
    const page = await fetchPage(`${server.url}/hop`, options({ resolver: fixedResolver('127.0.0.1') }));
    assert.equal(page.redirects.length, 1);
    assert.equal(new URL(page.url).searchParams.get('from'), page.body.toString());
  });

  test('a pooled connection is not reused under a policy that refuses its address', async () => {
    const resolver = fixedResolver('127.0.0.1');
    const url = `http://pooled.example:${server.port}/which`;
    await fetchPage(url, options({ resolver, policy: AddressPolicy.fromSetting('127.0.0.1') }));
    const seen = server.hits.length;
    await rejectsWith(fetchPage(url, options({ resolver, policy: AddressPolicy.fromSetting('') })), 'EFORBIDDENURL');
    assert.equal(server.hits.length, seen);
  });
});

describe('a pooled connection the server dropped', () => {
  let flaky: TestServer;
  const answered = new WeakSet<Socket>();

  before(async () => {
    // Each connection answers once, then is cut when it carries a second request: a stale keep-alive socket.
    flaky = await startServer({
      '/': (req, res) => {
        if (answered.has(req.socket)) return void req.socket.destroy();
        answered.add(req.socket);
        html('<title>fresh</title>')(req, res);
      },
    });
  });

  after(() => flaky.close());

  test('is retried once on a new connection', async () => {
    const resolver = fixedResolver('127.0.0.1');
    await fetchPage(`${flaky.url}/`, options({ resolver }));
    const page = await fetchPage(`${flaky.url}/`, options({ resolver }));
    assert.equal(page.body.toString(), '<title>fresh</title>');
    assert.equal(flaky.hits.length, 3, 'one answer, one cut reuse, one retry');
  });
});

describe('letting go', () => {
  test('cancel closes the connection of a body still streaming', async () => {
    const response = await openResponse(`${server.url}/endless`, options({ maxBytes: 1024 ** 3, budget: new Budget(5000) }));
    for await (const _chunk of response.body) break;
    response.cancel();
    const closed = await Promise.race([endless.at(-1)!.then(() => true), sleep(1000).then(() => false)]);
    assert.ok(closed, 'the server saw the connection close');
  });

  test('a body nobody reads is cut at the budget without crashing, and then reads as ETIMEOUT', async () => {
    const response = await openResponse(`${server.url}/endless`, options({ maxBytes: 1024 ** 3, budget: new Budget(200) }));
    const closed = await Promise.race([endless.at(-1)!.then(() => true), sleep(1000).then(() => false)]);
    assert.ok(closed, 'the server saw the connection close at the budget');
    await rejectsWith(Array.fromAsync(response.body), 'ETIMEOUT');
  });

  test('a body that arrived whole but was not read before the budget ended is ETIMEOUT, not cut short', async () => {
    const response = await openResponse(`${server.url}/small`, options({ budget: new Budget(100) }));
    await sleep(250);
    await rejectsWith(Array.fromAsync(response.body), 'ETIMEOUT');
  });
});
