/**
 * The address policy end to end, with no exemption for the local server: a refused target must never see a
 * request, whether it is named directly, reached through a name, or reached through a redirect.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { fetchPage } from '../../lib/fetch/index.ts';
import { agentFor } from '../../lib/fetch/agents.ts';
import { guardedLookup } from '../../lib/guard/lookup.ts';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { fixedResolver, options, rejectsWith } from './setup.ts';

const none = AddressPolicy.fromSetting('');
let server: TestServer;

before(async () => {
  server = await startServer({
    '/': html('<title>internal</title>'),
    '/secret': html('<title>secret</title>'),
    '/start': (_req, res) => void res.writeHead(302, { location: `http://127.0.0.1:${server.port}/secret` }).end(),
    '/to-localhost': (_req, res) => void res.writeHead(301, { location: `http://localhost:${server.port}/secret` }).end(),
  });
});

after(() => server.close());

describe('with no exemption', () => {
  test('a URL on 127.0.0.1 is EFORBIDDENURL and the server sees nothing', async () => {
    const seen = server.hits.length;
    await rejectsWith(fetchPage(`${server.url}/`, options({ policy: none })), 'EFORBIDDENURL');
    assert.equal(server.hits.length, seen);
  });

  test('a public-looking name that resolves to 127.0.0.1 is refused at connect time, with no request', async () => {
    const seen = server.hits.length;
    const resolver = fixedResolver('127.0.0.1');
    const error = await rejectsWith(
      fetchPage(`http://public.example:${server.port}/`, options({ policy: none, resolver })),
      'EFORBIDDENURL',
    );
    // The caller is told the name is not public, not where it points (no DNS oracle); the log keeps the address.
    assert.match(error.message, /public\.example does not resolve to a public address/);
    assert.doesNotMatch(error.message, /127\.0\.0\.1/);
    assert.match(String((error.cause as Error).message), /public\.example resolves to 127\.0\.0\.1/);
    assert.deepEqual(resolver.calls, ['public.example']);
    assert.equal(server.hits.length, seen);
  });

  test('a name resolving to ::1 is refused', async () => {
    const seen = server.hits.length;
    const resolver = fixedResolver('::1');
    await rejectsWith(fetchPage(`http://v6.example:${server.port}/`, options({ policy: none, resolver })), 'EFORBIDDENURL');
    assert.equal(server.hits.length, seen);
  });

  test('a name with mixed public and private answers is refused as a whole', async () => {
    const seen = server.hits.length;
    const resolver = fixedResolver('93.184.216.34', '127.0.0.1');
    await rejectsWith(
      fetchPage(`http://mixed.example:${server.port}/`, options({ policy: none, resolver })),
      'EFORBIDDENURL',
    );
    assert.equal(server.hits.length, seen);
  });

  test('an exempt name that redirects to a private address is refused, and the target gets no hit', async () => {
    const policy = AddressPolicy.fromSetting('public.example');
    const resolver = fixedResolver('127.0.0.1');
    const error = await rejectsWith(
      fetchPage(`http://public.example:${server.port}/start`, options({ policy, resolver })),
      'EFORBIDDENURL',
    );
    assert.match(error.message, /redirected/);
    assert.ok(server.hits.includes('/start'));
    assert.ok(!server.hits.includes('/secret'));
  });

  test('a redirect to localhost is refused without resolving it', async () => {
    const policy = AddressPolicy.fromSetting('public.example');
    const resolver = fixedResolver('127.0.0.1');
    await rejectsWith(
      fetchPage(`http://public.example:${server.port}/to-localhost`, options({ policy, resolver })),
      'EFORBIDDENURL',
    );
    assert.deepEqual(resolver.calls, ['public.example']);
    assert.ok(!server.hits.includes('/secret'));
  });

  test('connects to the address the resolver vetted (an IP exemption, a name no real DNS knows)', async () => {
    const policy = AddressPolicy.fromSetting('127.0.0.1');
    const page = await fetchPage(`http://only-in-test.example:${server.port}/`, options({ policy, resolver: fixedResolver('127.0.0.1') }));
    assert.equal(page.body.toString(), '<title>internal</title>');
  });
});

describe('guardedLookup', () => {
  const resolver = fixedResolver('127.0.0.1', '::1');
  const both = AddressPolicy.fromSetting('127.0.0.1,::1');

  const lookup = (policy: AddressPolicy, options: { all?: boolean; family?: number }) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
      (resolve) =>
        guardedLookup(policy, resolver)('host.example', options, (error, address, family) =>
          resolve({ error, address, family }),
        ),
    );

  test('refuses the whole name when one answer is not allowed', async () => {
    const { error } = await lookup(AddressPolicy.fromSetting('127.0.0.1'), { all: true });
    assert.equal(error?.code, 'EFORBIDDENURL');
  });

  test('answers every vetted address when net asks for all (autoSelectFamily)', async () => {
    const { error, address } = await lookup(both, { all: true });
    assert.equal(error, null);
    assert.deepEqual(address, [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  test('answers one address, of the family asked, in the single-answer shape', async () => {
    assert.deepEqual(await lookup(both, { family: 6 }), { error: null, address: '::1', family: 6 });
    assert.deepEqual(await lookup(both, {}), { error: null, address: '127.0.0.1', family: 4 });
  });
});

test('one agent per (policy, resolver) pair', () => {
  const resolver = fixedResolver('127.0.0.1');
  assert.equal(agentFor(none, resolver), agentFor(none, resolver));
  assert.notEqual(agentFor(none, resolver), agentFor(none, fixedResolver('127.0.0.1')));
  assert.notEqual(agentFor(none, resolver), agentFor(AddressPolicy.fromSetting(''), resolver));
  assert.equal(agentFor(none), agentFor(none));
});
