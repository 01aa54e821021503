/** Configuration read once from the environment: the local service's own settings and the local folders' retention. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, DEFAULT_CACHE_MAX_BYTES, DEFAULT_RETENTION_MS, DEFAULT_STORAGE_MAX_BYTES, loadConfig } from '../lib/config.ts';
import { TIMEOUT } from '../lib/query/options.ts';
import { sweepInterval } from '../lib/storage/sweep.ts';

test('the local service listens on loopback with a shutdown grace past the longest budget unless told otherwise', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.host, '127.0.0.1');
  assert.ok(defaults.shutdownGraceMs > TIMEOUT.max, 'a request admitted just before the signal has its whole budget');
  const set = loadConfig({ HOST: '0.0.0.0', GLANCE_SHUTDOWN_GRACE_MS: '2500' });
  assert.equal(set.host, '0.0.0.0');
  assert.equal(set.shutdownGraceMs, 2500);
});

test('a grace period that is not a whole number of milliseconds is refused by name', () => {
  for (const value of ['soon', '-1', '1.5']) {
    assert.throws(() => loadConfig({ GLANCE_SHUTDOWN_GRACE_MS: value }), (error: Error) => error instanceof ConfigError && /GLANCE_SHUTDOWN_GRACE_MS/.test(error.message));
  }
});

test('GLANCE_CHROMIUM_MODE: single-process by default in Lambda, multi-process elsewhere, either when set', () => {
  const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'prod-glance-api' };
  assert.equal(loadConfig({}).chromium.processes, 'multi');
  assert.equal(loadConfig(lambda).chromium.processes, 'single');
  assert.equal(loadConfig({ ...lambda, GLANCE_CHROMIUM_MODE: 'multi' }).chromium.processes, 'multi');
  assert.equal(loadConfig({ GLANCE_CHROMIUM_MODE: 'single' }).chromium.processes, 'single');
  assert.throws(() => loadConfig({ GLANCE_CHROMIUM_MODE: 'single-process' }), (error: Error) => error instanceof ConfigError && /GLANCE_CHROMIUM_MODE/.test(error.message));
});

test('GLANCE_CHROMIUM_ARGS is a JSON array of strings, since flags hold commas and spaces', () => {
  const rules = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost';
  assert.deepEqual(loadConfig({}).chromiumArgs, []);
  assert.deepEqual(loadConfig({ GLANCE_CHROMIUM_ARGS: JSON.stringify([rules]) }).chromiumArgs, [rules]);
  for (const value of [rules, '{"a":1}', '[1]']) {
    assert.throws(() => loadConfig({ GLANCE_CHROMIUM_ARGS: value }), (error: Error) => error instanceof ConfigError && /GLANCE_CHROMIUM_ARGS/.test(error.message));
  }
});

const retentionOf = (env: Record<string, string>) => {
  const { storage, cache } = loadConfig(env);
  assert.equal(storage.kind, 'local');
  assert.equal(cache.kind, 'local');
  return [storage.kind === 'local' && storage.retention, cache.kind === 'local' && cache.retention];
};

test('local assets and cache entries are kept 31 days by default, the longest ttl', () => {
  assert.equal(DEFAULT_RETENTION_MS, 31 * 24 * 3_600_000);
  assert.deepEqual(retentionOf({}), [DEFAULT_RETENTION_MS, DEFAULT_RETENTION_MS]);
});

test('GLANCE_RETENTION is a duration of at least a minute', () => {
  assert.deepEqual(retentionOf({ GLANCE_RETENTION: '7d' }), [7 * 24 * 3_600_000, 7 * 24 * 3_600_000]);
  assert.deepEqual(retentionOf({ GLANCE_RETENTION: '2m' }), [120_000, 120_000]);
  for (const bad of ['soon', '59s', '-1d']) assert.throws(() => loadConfig({ GLANCE_RETENTION: bad }), ConfigError, bad);
});

test('the local folders are swept every 10 minutes, or twice per retention when that is shorter', () => {
  assert.equal(sweepInterval(DEFAULT_RETENTION_MS), 10 * 60_000);
  assert.equal(sweepInterval(120_000), 60_000);
});

test('GLANCE_ADBLOCK_LISTS: comma-separated paths of files that exist; GLANCE_ADBLOCK_ENGINE: one', () => {
  const here = new URL(import.meta.url).pathname;
  assert.deepEqual(loadConfig({}).adblock, { lists: [], engine: undefined });
  assert.deepEqual(loadConfig({ GLANCE_ADBLOCK_LISTS: ` ${here} , ${here}`, GLANCE_ADBLOCK_ENGINE: here }).adblock, { lists: [here, here], engine: here });
  assert.throws(
    () => loadConfig({ GLANCE_ADBLOCK_LISTS: `${here},/nowhere/easylist.txt` }),
    (error: Error) => error instanceof ConfigError && /GLANCE_ADBLOCK_LISTS.*\/nowhere\/easylist\.txt/.test(error.message),
  );
  assert.throws(() => loadConfig({ GLANCE_ADBLOCK_ENGINE: '/nowhere/engine.bin' }), (error: Error) => error instanceof ConfigError && /GLANCE_ADBLOCK_ENGINE/.test(error.message));
});

test("embed.proxy's limit: 10 MiB by default, 4 MiB at most in Lambda (its 6 MB response holds the bytes base64-encoded)", () => {
  assert.equal(loadConfig({}).embedProxyMaxBytes, 10 * 1024 * 1024);
  assert.equal(loadConfig({ GLANCE_EMBED_PROXY_MAX_BYTES: '50000000' }).embedProxyMaxBytes, 50_000_000);
  const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'glance' };
  assert.equal(loadConfig(lambda).embedProxyMaxBytes, 4 * 1024 * 1024);
  assert.equal(loadConfig({ ...lambda, GLANCE_EMBED_PROXY_MAX_BYTES: '1000000' }).embedProxyMaxBytes, 1_000_000);
  assert.throws(() => loadConfig({ ...lambda, GLANCE_EMBED_PROXY_MAX_BYTES: '5000000' }), (error: Error) => error instanceof ConfigError && /GLANCE_EMBED_PROXY_MAX_BYTES/.test(error.message));
  assert.throws(() => loadConfig({ GLANCE_EMBED_PROXY_MAX_BYTES: '1k' }), ConfigError);
});

test('GLANCE_BROWSER_SPARE is on and GLANCE_BROWSER_AT_INIT off by default; each takes true or false only', () => {
  assert.equal(loadConfig({}).browserSpare, true);
  assert.equal(loadConfig({}).browserAtInit, false);
  assert.equal(loadConfig({ GLANCE_BROWSER_SPARE: 'false' }).browserSpare, false);
  assert.equal(loadConfig({ GLANCE_BROWSER_AT_INIT: 'true' }).browserAtInit, true);
  assert.throws(() => loadConfig({ GLANCE_BROWSER_SPARE: 'off' }), /GLANCE_BROWSER_SPARE must be "true" or "false"/);
  assert.throws(() => loadConfig({ GLANCE_BROWSER_AT_INIT: '1' }), /GLANCE_BROWSER_AT_INIT/);
  // `single` mode (Lambda's default): a spare is a whole idle browser, on by default only as the launch at init.
  const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'glance' };
  assert.equal(loadConfig(lambda).browserSpare, false);
  assert.equal(loadConfig({ ...lambda, GLANCE_BROWSER_AT_INIT: 'true' }).browserSpare, true);
  assert.equal(loadConfig({ ...lambda, GLANCE_BROWSER_SPARE: 'true' }).browserSpare, true);
  assert.equal(loadConfig({ ...lambda, GLANCE_CHROMIUM_MODE: 'multi' }).browserSpare, true);
  assert.equal(loadConfig({ GLANCE_CHROMIUM_MODE: 'single' }).browserSpare, false);
});

test('the local rate limit is off by default; GLANCE_RATE_LIMIT per GLANCE_RATE_LIMIT_WINDOW (1m by default); refused in Lambda', () => {
  assert.equal(loadConfig({}).rateLimit, undefined);
  assert.deepEqual(loadConfig({ GLANCE_RATE_LIMIT: '100' }).rateLimit, { limit: 100, windowMs: 60_000 });
  assert.deepEqual(loadConfig({ GLANCE_RATE_LIMIT: '5000', GLANCE_RATE_LIMIT_WINDOW: '1d' }).rateLimit, { limit: 5000, windowMs: 86_400_000 });
  for (const [name, value] of [['GLANCE_RATE_LIMIT', '0'], ['GLANCE_RATE_LIMIT', 'many'], ['GLANCE_RATE_LIMIT_WINDOW', '500ms'], ['GLANCE_RATE_LIMIT_WINDOW', 'soon'], ['GLANCE_RATE_LIMIT_WINDOW', '60d']]) {
    const env = { GLANCE_RATE_LIMIT: '10', [name as string]: value as string };
    assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && error.message.includes(name as string), `${name}=${value}`);
  }
  assert.throws(() => loadConfig({ AWS_LAMBDA_FUNCTION_NAME: 'glance', GLANCE_RATE_LIMIT: '10' }), (error: Error) => error instanceof ConfigError && /GLANCE_WAF_RATE_LIMIT/.test(error.message));
});

test('GLANCE_TRUST_PROXY_HOPS: no forwarded address is believed by default', () => {
  assert.equal(loadConfig({}).trustProxyHops, 0);
  assert.equal(loadConfig({ GLANCE_TRUST_PROXY_HOPS: '1' }).trustProxyHops, 1);
  assert.throws(() => loadConfig({ GLANCE_TRUST_PROXY_HOPS: '-1' }), (error: Error) => error instanceof ConfigError && /GLANCE_TRUST_PROXY_HOPS/.test(error.message));
});

test('GLANCE_MCP_ORIGINS: origins as browsers send them, plus the service\'s own; GLANCE_MCP_IMAGE_MAX_BYTES: 1 MiB by default', () => {
  assert.deepEqual(loadConfig({}).mcp, { origins: ['http://localhost:3000'], imageMaxBytes: 1024 * 1024 });
  const listed = loadConfig({ GLANCE_MCP_ORIGINS: 'https://app.example.com/, *', GLANCE_PUBLIC_URL: 'https://api.example.com' }).mcp.origins;
  assert.deepEqual(listed, ['https://app.example.com', '*', 'https://api.example.com']);
  for (const [name, value] of [['GLANCE_MCP_ORIGINS', 'app.example.com'], ['GLANCE_MCP_ORIGINS', 'file:///x'], ['GLANCE_MCP_IMAGE_MAX_BYTES', '10']]) {
    assert.throws(() => loadConfig({ [name as string]: value as string }), (error: Error) => error instanceof ConfigError && error.message.includes(name as string), `${name}=${value}`);
  }
});

test('the local folders are bounded by size: 5 GiB of assets and 2 GiB of cache unless told otherwise, at least 64 MiB', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.storage.kind === 'local' && defaults.storage.maxBytes, DEFAULT_STORAGE_MAX_BYTES);
  assert.equal(defaults.cache.kind === 'local' && defaults.cache.maxBytes, DEFAULT_CACHE_MAX_BYTES);
  const set = loadConfig({ GLANCE_STORAGE_MAX_BYTES: String(1024 ** 3), GLANCE_CACHE_MAX_BYTES: String(128 * 1024 ** 2) });
  assert.equal(set.storage.kind === 'local' && set.storage.maxBytes, 1024 ** 3);
  assert.equal(set.cache.kind === 'local' && set.cache.maxBytes, 128 * 1024 ** 2);
  for (const value of ['1000', '-1', '1.5', 'lots']) {
    assert.throws(() => loadConfig({ GLANCE_CACHE_MAX_BYTES: value }), (error: Error) => error instanceof ConfigError && /GLANCE_CACHE_MAX_BYTES/.test(error.message));
  }
});
