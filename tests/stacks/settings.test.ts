/** Deployment settings: what a stage may configure, and the mistakes refused before anything is synthesised. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSettings, SettingsError } from '../../stacks/settings.ts';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-1111-2222-3333-444455556666';

test('nothing configured: no custom domains, an open API, default throttling', () => {
  assert.deepEqual(readSettings({}), {
    cdnDomain: undefined,
    apiDomain: undefined,
    apiKeysParameter: undefined,
    throttle: { rate: 50, burst: 100 },
    retentionDays: 31,
    passThrough: {},
  });
});

test('the retention is a duration of at least a day, rounded up to the whole days S3 lifecycle rules count in', () => {
  assert.equal(readSettings({ GLANCE_RETENTION: '7d' }).retentionDays, 7);
  assert.equal(readSettings({ GLANCE_RETENTION: '36h' }).retentionDays, 2);
  for (const bad of ['12h', 'a month']) assert.throws(() => readSettings({ GLANCE_RETENTION: bad }), /GLANCE_RETENTION/);
});

test('custom domains need a certificate CloudFront accepts (ACM, us-east-1)', () => {
  assert.deepEqual(readSettings({ GLANCE_CDN_DOMAIN: 'CDN.Example.com', GLANCE_CDN_CERTIFICATE_ARN: CERT }).cdnDomain, {
    name: 'cdn.example.com',
    certificateArn: CERT,
  });
  assert.throws(() => readSettings({ GLANCE_API_DOMAIN: 'api.example.com' }), SettingsError);
  assert.throws(() => readSettings({ GLANCE_API_DOMAIN: 'api.example.com', GLANCE_API_CERTIFICATE_ARN: CERT.replace('us-east-1', 'eu-west-1') }), /us-east-1/);
  assert.throws(() => readSettings({ GLANCE_CDN_CERTIFICATE_ARN: CERT }), /GLANCE_CDN_DOMAIN/);
  assert.throws(() => readSettings({ GLANCE_CDN_DOMAIN: 'https://cdn.example.com/', GLANCE_CDN_CERTIFICATE_ARN: CERT }), /host name/);
});

test('the API keys parameter is a parameter name or ARN', () => {
  assert.equal(readSettings({ GLANCE_API_KEYS_PARAMETER: '/glance/prod/api-keys' }).apiKeysParameter, '/glance/prod/api-keys');
  const arn = 'arn:aws:ssm:eu-west-1:123456789012:parameter/glance/keys';
  assert.equal(readSettings({ GLANCE_API_KEYS_PARAMETER: arn }).apiKeysParameter, arn);
  assert.throws(() => readSettings({ GLANCE_API_KEYS_PARAMETER: 'keys with spaces' }), /GLANCE_API_KEYS_PARAMETER/);
});

test('throttling takes positive integers', () => {
  assert.deepEqual(readSettings({ GLANCE_THROTTLE_RATE: '5', GLANCE_THROTTLE_BURST: '10' }).throttle, { rate: 5, burst: 10 });
  assert.throws(() => readSettings({ GLANCE_THROTTLE_RATE: '0' }), /GLANCE_THROTTLE_RATE/);
  assert.throws(() => readSettings({ GLANCE_THROTTLE_BURST: '1.5' }), /GLANCE_THROTTLE_BURST/);
});

test('function tuning passes through, the address-policy exemption never does', () => {
  const { passThrough } = readSettings({ GLANCE_MAX_BODY_BYTES: '2048', GLANCE_USER_AGENT: 'ua', GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: '' });
  assert.deepEqual(passThrough, { GLANCE_MAX_BODY_BYTES: '2048', GLANCE_USER_AGENT: 'ua' });
});

test("the Chromium launch mode passes through to the function, which validates it (lib/config.ts)", () => {
  assert.deepEqual(readSettings({ GLANCE_CHROMIUM_MODE: 'multi' }).passThrough, { GLANCE_CHROMIUM_MODE: 'multi' });
});
