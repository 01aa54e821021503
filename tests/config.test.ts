/** The local service's own settings: loopback by default, the shutdown grace period, extra Chromium flags. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../lib/config.ts';

test('the local service listens on loopback with a 10 s shutdown grace unless told otherwise', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.host, '127.0.0.1');
  assert.equal(defaults.shutdownGraceMs, 10_000);
  const set = loadConfig({ HOST: '0.0.0.0', GLANCE_SHUTDOWN_GRACE_MS: '2500' });
  assert.equal(set.host, '0.0.0.0');
  assert.equal(set.shutdownGraceMs, 2500);
});

test('a grace period that is not a whole number of milliseconds is refused by name', () => {
  for (const value of ['soon', '-1', '1.5']) {
    assert.throws(() => loadConfig({ GLANCE_SHUTDOWN_GRACE_MS: value }), (error: Error) => error instanceof ConfigError && /GLANCE_SHUTDOWN_GRACE_MS/.test(error.message));
  }
});

test('GLANCE_CHROMIUM_ARGS is a JSON array of strings, since flags hold commas and spaces', () => {
  const rules = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost';
  assert.deepEqual(loadConfig({}).chromiumArgs, []);
  assert.deepEqual(loadConfig({ GLANCE_CHROMIUM_ARGS: JSON.stringify([rules]) }).chromiumArgs, [rules]);
  for (const value of [rules, '{"a":1}', '[1]']) {
    assert.throws(() => loadConfig({ GLANCE_CHROMIUM_ARGS: value }), (error: Error) => error instanceof ConfigError && /GLANCE_CHROMIUM_ARGS/.test(error.message));
  }
});
