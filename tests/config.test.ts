/** Configuration read once from the environment: the retention of the local folders (GLANCE_RETENTION). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, DEFAULT_RETENTION_MS, loadConfig } from '../lib/config.ts';

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

test('GLANCE_RETENTION is a duration of at least an hour', () => {
  assert.deepEqual(retentionOf({ GLANCE_RETENTION: '7d' }), [7 * 24 * 3_600_000, 7 * 24 * 3_600_000]);
  for (const bad of ['soon', '59m', '-1d']) assert.throws(() => loadConfig({ GLANCE_RETENTION: bad }), ConfigError, bad);
});
