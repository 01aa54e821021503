/**
 * HTTPS through the guarded agent: the TLS handshake names the host (SNI and the certificate check), never the
 * address the lookup connected to, and certificate failures are EFETCH naming TLS.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { fetchPage } from '../../lib/fetch/index.ts';
import { CERT, HOST, KEY } from './certificate.ts';
import { fixedResolver, options, rejectsWith } from './setup.ts';

let server: Server;
let port: number;
/** The SNI name of every handshake that sent one (recorded from the ClientHello, before the client can refuse). */
const names: string[] = [];
let connections = 0;

before(async () => {
  const context = tls.createSecureContext({ key: KEY, cert: CERT });
  const SNICallback = (name: string, done: (error: Error | null, context: tls.SecureContext) => void): void => {
    names.push(name);
    done(null, context);
  };
  server = createServer({ key: KEY, cert: CERT, SNICallback }, (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>secure</title>'),
  );
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('https', () => {
  test('an untrusted certificate is EFETCH naming TLS, and the handshake named the host', async () => {
    const seen = names.length;
    const error = await rejectsWith(
      fetchPage(`https://${HOST}:${port}/`, options({ resolver: fixedResolver('127.0.0.1') })),
      'EFETCH',
    );
    assert.match(error.message, /TLS error with sni\.example/);
    assert.deepEqual(names.slice(seen), [HOST]);
  });

  test('a trusted certificate for the name is accepted though the socket connected to an address', async () => {
    tls.setDefaultCACertificates([...tls.getCACertificates('default'), CERT]);
    const seen = names.length;
    const page = await fetchPage(`https://${HOST}:${port}/`, options({ resolver: fixedResolver('127.0.0.1') }));
    assert.equal(page.statusCode, 200);
    assert.equal(page.body.toString(), '<title>secure</title>');
    assert.deepEqual(names.slice(seen), [HOST]);
  });

  test('an address as host sends no SNI, and a trusted certificate for a name does not cover it', async () => {
    const [seenNames, seenConnections] = [names.length, connections];
    const error = await rejectsWith(fetchPage(`https://127.0.0.1:${port}/`, options()), 'EFETCH');
    assert.match(error.message, /TLS error with 127\.0\.0\.1:\d+: Hostname\/IP does not match/);
    assert.equal(connections, seenConnections + 1);
    assert.equal(names.length, seenNames);
  });
});
