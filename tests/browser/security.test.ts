/**
 * docs/CONTRACT.md §7 inside the browser. The policy exempts only the name `public.test` (resolved by an injected
 * resolver to 127.0.0.1); 127.0.0.1 itself is not exempt. A page at public.test points every kind of request at
 * the private address, and the servers there must see nothing, while the capture still succeeds.
 */
import assert from 'node:assert/strict';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Renderer } from '../../lib/browser/index.ts';
import type { Resolver } from '../../lib/guard/lookup.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { codeOf, render, testRenderer } from './helpers.ts';

/** Public-looking names the test controls: public.test is exempt, evil.test is a name that rebinds to loopback. */
const resolver: Resolver = async (hostname) => {
  if (hostname === 'public.test' || hostname === 'evil.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('the address rules inside the browser', () => {
  let site: TestServer;
  let renderer: Renderer;
  /** Counts every TCP connection: the websocket, wss and TURN targets. */
  let sentinel: Server;
  let sentinelConnections = 0;
  /** Counts STUN datagrams. */
  let udp: UdpSocket;
  let datagrams = 0;

  before(async () => {
    sentinel = createServer((socket) => {
      sentinelConnections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => sentinel.listen(0, '127.0.0.1', resolve));
    udp = createSocket('udp4').on('message', () => (datagrams += 1));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    site = await startServer();
    const port = site.port;
    const tcp = (sentinel.address() as { port: number }).port;
    const stun = udp.address().port;
    const attacks = `<!doctype html><title>public</title><body style="background:#fff">
<img src="http://127.0.0.1:${port}/private-img.png">
<img src="http://localhost:${port}/private-localhost.png">
<img src="http://2130706433:${port}/private-decimal.png">
<img src="http://0x7f.0.0.1:${port}/private-hex.png">
<img src="http://[::ffff:127.0.0.1]:${port}/private-mapped.png">
<img src="http://evil.test:${port}/private-rebind.png">
<link rel="stylesheet" href="http://127.0.0.1:${port}/private-css">
<img src="http://public.test:6379/bad-port.png">
<iframe src="http://127.0.0.1:${port}/private-frame"></iframe>
<script>
fetch('http://127.0.0.1:${port}/private-fetch').catch(() => {});
navigator.sendBeacon('http://127.0.0.1:${port}/private-beacon', 'x');
new EventSource('http://127.0.0.1:${port}/private-events');
new WebSocket('ws://127.0.0.1:${tcp}/private-ws');
new WebSocket('wss://127.0.0.1:${tcp}/private-wss');
fetch('https://127.0.0.1:${tcp}/private-tls').catch(() => {});
fetch('https://public.test:11211/bad-port-tls').catch(() => {});
const peer = new RTCPeerConnection({ iceServers: [
  { urls: 'stun:127.0.0.1:${stun}' },
  { urls: 'turn:127.0.0.1:${tcp}?transport=tcp', username: 'u', credential: 'p' },
] });
peer.createDataChannel('x');
peer.createOffer().then((offer) => peer.setLocalDescription(offer));
</script>`;
    site.route('/', html(attacks));
    site.route('/redirect', (_req, res) => void res.writeHead(302, { location: `http://127.0.0.1:${port}/private-redirect` }).end());
    site.route('/rebind', (_req, res) => void res.writeHead(302, { location: `http://evil.test:${port}/private-rebind-redirect` }).end());
    site.route('/later', html(`<title>later</title><script>setTimeout(() => { location.href = 'http://127.0.0.1:${port}/private-js' }, 50)</script>`));
    renderer = await testRenderer('public.test', resolver);
  });
  after(async () => {
    await renderer.close();
    await site.close();
    await new Promise<void>((resolve) => sentinel.close(() => resolve()));
    udp.close();
  });

  const privateHits = () => site.hits.filter((hit) => hit.includes('private'));

  test('a public page whose subresources, frames, fetches, sockets and WebRTC point at 127.0.0.1 reaches none of them', async () => {
    const result = await render(renderer, `http://public.test:${site.port}/`, 'screenshot&waitForTimeout=600');
    assert.equal(result.statusCode, 200);
    assert.ok(result.screenshot && result.screenshot.width === 2560);
    assert.deepEqual(privateHits(), []);
    assert.equal(sentinelConnections, 0);
    assert.equal(datagrams, 0);
    // The requests were made and refused (not merely never sent): the proxy saw them.
    const refused = result.refused.join(' ');
    // The exempt host on a bad port (Redis, memcached through a tunnel) is refused too.
    for (const target of [
      'private-img.png', 'private-fetch', 'private-frame', 'private-rebind.png', 'localhost:', 'public.test:6379/bad-port.png',
      'public.test:11211',
    ]) {
      assert.ok(refused.includes(target), `${target} not among refusals: ${refused}`);
    }
    const tcp = (sentinel.address() as { port: number }).port;
    assert.ok(refused.includes(`127.0.0.1:${tcp}`), `websocket/tls tunnel not refused: ${refused}`);
  });

  test('a redirect of the document to a private address is EFORBIDDENURL, and never followed', async () => {
    assert.equal(await codeOf(render(renderer, `http://public.test:${site.port}/redirect`, 'screenshot')), 'EFORBIDDENURL');
    assert.equal(await codeOf(render(renderer, `http://public.test:${site.port}/rebind`, 'screenshot')), 'EFORBIDDENURL');
    assert.deepEqual(privateHits(), []);
  });

  test('the target itself at 127.0.0.1 is EFORBIDDENURL even when handed straight to the renderer', async () => {
    assert.equal(await codeOf(render(renderer, `http://127.0.0.1:${site.port}/private-direct`, 'screenshot')), 'EFORBIDDENURL');
    const tcp = (sentinel.address() as { port: number }).port;
    assert.equal(await codeOf(render(renderer, `https://127.0.0.1:${tcp}/`, 'screenshot')), 'EFORBIDDENURL');
    assert.deepEqual(privateHits(), []);
    assert.equal(sentinelConnections, 0);
  });

  test('a script navigating to a private address after load reaches nothing', async () => {
    await render(renderer, `http://public.test:${site.port}/later`, 'screenshot&waitForTimeout=400').catch(() => undefined);
    assert.deepEqual(privateHits(), []);
  });
});
