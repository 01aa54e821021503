/** The answer's outbound allowance (lib/guard/outbound.ts): counted per request, per host, and never queued. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchPage } from '../../lib/fetch/index.ts';
import { NESTED_PROBES, Outbound, OutboundLimitError, OUTBOUND_LIMITS } from '../../lib/guard/outbound.ts';
import { probeOutcome } from '../../lib/ping/probe.ts';
import { Budget } from '../../lib/time/budget.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { localPolicy, options, rejectsWith, USER_AGENT } from '../fetch/setup.ts';

describe('Outbound', () => {
  test('counts every request and refuses past the total, whatever the host', () => {
    const outbound = new Outbound({ total: 3, perHost: 3 });
    outbound.take(new URL('https://a.example/'));
    outbound.take(new URL('https://b.example/'));
    outbound.take(new URL('https://c.example/'));
    assert.throws(() => outbound.take(new URL('https://d.example/')), OutboundLimitError);
    assert.equal(outbound.sent, 3);
  });

  test('one host gets at most perHost, names compared without case', () => {
    const outbound = new Outbound({ total: 10, perHost: 2 });
    outbound.take(new URL('https://victim.example/1'));
    outbound.take(new URL('http://VICTIM.example:8080/2'));
    assert.throws(() => outbound.take(new URL('https://victim.example/3')), /2 requests to one host/);
    outbound.take(new URL('https://other.example/'));
    assert.equal(outbound.sent, 3);
  });

  test('a fully qualified name (trailing dot) counts with its plain form', () => {
    const outbound = new Outbound({ total: 10, perHost: 2 });
    outbound.take(new URL('https://glance.example/1'));
    outbound.take(new URL('https://Glance.Example./2'));
    assert.throws(() => outbound.take(new URL('https://glance.example./3')), /2 requests to one host/);
  });

  test(`at most ${NESTED_PROBES} media probes carry hop 1, whatever else they count; a nested answer's none`, () => {
    const outbound = new Outbound();
    const marks = Array.from({ length: 5 }, () => outbound.mediaHop('1'));
    assert.deepEqual(marks, ['1', '1', '2', '2', '2']);
    assert.equal(new Outbound().mediaHop('2'), '2');
  });

  test('the documented defaults', () => {
    assert.deepEqual({ ...OUTBOUND_LIMITS }, { total: 100, perHost: 40 });
  });
});

describe('the fetcher takes one request per exchange', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      '/hop': (req, res) => {
        const n = Number(new URL(req.url ?? '', 'http://x').searchParams.get('n'));
        res.writeHead(302, { location: n > 0 ? `/hop?n=${n - 1}` : '/end' }).end();
      },
      '/end': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('end'),
    });
  });
  after(() => server.close());

  test('redirect hops count; past the allowance nothing more is sent', async () => {
    const outbound = new Outbound({ total: 4, perHost: 4 });
    const hits = server.hits.length;
    const error = await rejectsWith(fetchPage(`${server.url}/hop?n=5`, options({ outbound })), 'EFETCH');
    assert.ok(error instanceof OutboundLimitError);
    assert.match(error.message, /limit of 4 outbound requests/);
    assert.equal(server.hits.length - hits, 4);
    assert.equal(outbound.sent, 4);
  });
});

test('a ping refused for a spent allowance is not a lasting answer: the ping cache must not keep it', async () => {
  const outbound = new Outbound({ total: 0, perHost: 0 });
  const outcome = await probeOutcome('http://127.0.0.1:8999/x.png', 'image', new Budget(2000), { policy: localPolicy, userAgent: USER_AGENT, outbound });
  assert.deepEqual(outcome, { media: null, lasting: false });
});
