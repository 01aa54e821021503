/** Deployment settings: what a stage may configure, and the mistakes refused before anything is synthesised. */
import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readSettings, SettingsError } from '../../stacks/settings.ts';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-1111-2222-3333-444455556666';

test('nothing configured on a dev stage: no custom domains, an open API, bounded spend, no alarm target', () => {
  assert.deepEqual(readSettings('dev', {}), {
    cdnDomain: undefined,
    apiDomain: undefined,
    apiKeysParameter: undefined,
    throttle: { rate: 10, burst: 20 },
    reservedConcurrency: undefined,
    monthlyBudgetUsd: undefined,
    waf: { perIp: undefined, perKey: undefined },
    runtime: 'nodejs22.x',
    logRetentionDays: 30,
    alarms: { email: undefined, topicArn: undefined },
    retentionDays: 31,
    adblockLists: [],
    passThrough: {},
  });
});

test('every stage but a developer\'s own is keyed by default, with the stage\'s parameter; GLANCE_OPEN_API opens it on purpose', () => {
  assert.equal(readSettings('prod', {}).apiKeysParameter, '/glance/prod/api-keys');
  assert.equal(readSettings('staging', {}).apiKeysParameter, '/glance/staging/api-keys');
  for (const stage of ['dev', 'development', 'local', 'dev-alice']) assert.equal(readSettings(stage, {}).apiKeysParameter, undefined, stage);
  assert.equal(readSettings('prod', { GLANCE_OPEN_API: 'true' }).apiKeysParameter, undefined);
  assert.equal(readSettings('dev', { GLANCE_OPEN_API: 'false' }).apiKeysParameter, '/glance/dev/api-keys');
  assert.equal(readSettings('prod', { GLANCE_API_KEYS_PARAMETER: '/keys' }).apiKeysParameter, '/keys');
  assert.throws(() => readSettings('prod', { GLANCE_OPEN_API: 'true', GLANCE_API_KEYS_PARAMETER: '/keys' }), /contradict/);
  assert.throws(() => readSettings('prod', { GLANCE_OPEN_API: 'yes' }), /GLANCE_OPEN_API/);
});

test('the retention is a duration of at least a day, rounded up to the whole days S3 lifecycle rules count in', () => {
  assert.equal(readSettings('dev', { GLANCE_RETENTION: '7d' }).retentionDays, 7);
  assert.equal(readSettings('dev', { GLANCE_RETENTION: '36h' }).retentionDays, 2);
  for (const bad of ['12h', 'a month']) assert.throws(() => readSettings('dev', { GLANCE_RETENTION: bad }), /GLANCE_RETENTION/);
});

test('custom domains need a certificate CloudFront accepts (ACM, us-east-1)', () => {
  assert.deepEqual(readSettings('dev', { GLANCE_CDN_DOMAIN: 'CDN.Example.com', GLANCE_CDN_CERTIFICATE_ARN: CERT }).cdnDomain, {
    name: 'cdn.example.com',
    certificateArn: CERT,
  });
  assert.throws(() => readSettings('dev', { GLANCE_API_DOMAIN: 'api.example.com' }), SettingsError);
  assert.throws(() => readSettings('dev', { GLANCE_API_DOMAIN: 'api.example.com', GLANCE_API_CERTIFICATE_ARN: CERT.replace('us-east-1', 'eu-west-1') }), /us-east-1/);
  assert.throws(() => readSettings('dev', { GLANCE_CDN_CERTIFICATE_ARN: CERT }), /GLANCE_CDN_DOMAIN/);
  assert.throws(() => readSettings('dev', { GLANCE_CDN_DOMAIN: 'https://cdn.example.com/', GLANCE_CDN_CERTIFICATE_ARN: CERT }), /host name/);
});

test('the API keys parameter is a parameter name or ARN', () => {
  assert.equal(readSettings('dev', { GLANCE_API_KEYS_PARAMETER: '/glance/prod/api-keys' }).apiKeysParameter, '/glance/prod/api-keys');
  const arn = 'arn:aws:ssm:eu-west-1:123456789012:parameter/glance/keys';
  assert.equal(readSettings('dev', { GLANCE_API_KEYS_PARAMETER: arn }).apiKeysParameter, arn);
  assert.throws(() => readSettings('dev', { GLANCE_API_KEYS_PARAMETER: 'keys with spaces' }), /GLANCE_API_KEYS_PARAMETER/);
});

test('throttling takes positive integers', () => {
  assert.deepEqual(readSettings('dev', { GLANCE_THROTTLE_RATE: '5', GLANCE_THROTTLE_BURST: '10' }).throttle, { rate: 5, burst: 10 });
  assert.throws(() => readSettings('dev', { GLANCE_THROTTLE_RATE: '0' }), /GLANCE_THROTTLE_RATE/);
  assert.throws(() => readSettings('dev', { GLANCE_THROTTLE_BURST: '1.5' }), /GLANCE_THROTTLE_BURST/);
});

test('reserved concurrency: none by default (a new account may be too small for any), a positive integer when set', () => {
  assert.equal(readSettings('prod', {}).reservedConcurrency, undefined, 'Lambda refuses a reservation leaving under 100 unreserved');
  assert.equal(readSettings('dev', { GLANCE_RESERVED_CONCURRENCY: '25' }).reservedConcurrency, 25);
  assert.equal(readSettings('dev', { GLANCE_RESERVED_CONCURRENCY: 'off' }).reservedConcurrency, undefined);
  assert.throws(() => readSettings('dev', { GLANCE_RESERVED_CONCURRENCY: '0' }), /GLANCE_RESERVED_CONCURRENCY/);
});

test('WAF limits are off unless set, at least WAF\'s minimum of 10, and per key only where there are keys', () => {
  assert.deepEqual(readSettings('dev', { GLANCE_WAF_RATE_LIMIT: '600' }).waf, { perIp: 600, perKey: undefined });
  assert.deepEqual(readSettings('prod', { GLANCE_WAF_KEY_RATE_LIMIT: '300' }).waf, { perIp: undefined, perKey: 300 });
  assert.throws(() => readSettings('dev', { GLANCE_WAF_RATE_LIMIT: '5' }), /at least 10/);
  assert.throws(() => readSettings('dev', { GLANCE_WAF_RATE_LIMIT: 'many' }), /GLANCE_WAF_RATE_LIMIT/);
  assert.throws(() => readSettings('dev', { GLANCE_WAF_KEY_RATE_LIMIT: '300' }), /needs API keys/);
});

test('the runtime is Node 22 or 24, log retention a value CloudWatch Logs accepts', () => {
  assert.equal(readSettings('dev', { GLANCE_RUNTIME: 'nodejs24.x' }).runtime, 'nodejs24.x');
  assert.throws(() => readSettings('dev', { GLANCE_RUNTIME: 'nodejs20.x' }), /GLANCE_RUNTIME must be one of nodejs22.x, nodejs24.x/);
  assert.equal(readSettings('dev', { GLANCE_LOG_RETENTION_DAYS: '90' }).logRetentionDays, 90);
  assert.throws(() => readSettings('dev', { GLANCE_LOG_RETENTION_DAYS: '31' }), /GLANCE_LOG_RETENTION_DAYS/);
});

test('alarms go to an e-mail address, an SNS topic, or both', () => {
  const topicArn = 'arn:aws:sns:us-east-1:123456789012:ops-alerts';
  assert.deepEqual(readSettings('dev', { GLANCE_ALARM_EMAIL: 'ops@example.com', GLANCE_ALARM_TOPIC_ARN: topicArn }).alarms, { email: 'ops@example.com', topicArn });
  assert.throws(() => readSettings('dev', { GLANCE_ALARM_EMAIL: 'ops' }), /GLANCE_ALARM_EMAIL/);
  assert.throws(() => readSettings('dev', { GLANCE_ALARM_TOPIC_ARN: 'ops-alerts' }), /GLANCE_ALARM_TOPIC_ARN/);
});

test('a monthly budget is optional, a positive number of dollars, and needs somewhere to send its alert', () => {
  assert.equal(readSettings('prod', {}).monthlyBudgetUsd, undefined);
  assert.equal(readSettings('prod', { GLANCE_BUDGET_USD: '50', GLANCE_ALARM_EMAIL: 'ops@example.com' }).monthlyBudgetUsd, 50);
  assert.throws(() => readSettings('prod', { GLANCE_BUDGET_USD: '50' }), /GLANCE_ALARM_EMAIL or GLANCE_ALARM_TOPIC_ARN/);
  assert.throws(() => readSettings('prod', { GLANCE_BUDGET_USD: 'lots', GLANCE_ALARM_EMAIL: 'ops@example.com' }), /GLANCE_BUDGET_USD/);
});

test('function tuning passes through, the address-policy exemption never does', () => {
  const { passThrough } = readSettings('dev', { GLANCE_MAX_BODY_BYTES: '2048', GLANCE_USER_AGENT: 'ua', GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CACHE: '' });
  assert.deepEqual(passThrough, { GLANCE_MAX_BODY_BYTES: '2048', GLANCE_USER_AGENT: 'ua' });
});

test("the deployer's adblock lists are files that exist, kept as absolute paths", () => {
  const here = fileURLToPath(import.meta.url);
  assert.deepEqual(readSettings('dev', {}).adblockLists, []);
  assert.deepEqual(readSettings('dev', { GLANCE_ADBLOCK_LISTS: `${relative(process.cwd(), here)}, ${here}` }).adblockLists, [here, here]);
  assert.throws(() => readSettings('dev', { GLANCE_ADBLOCK_LISTS: '/nowhere/easylist.txt' }), (error: Error) => error instanceof SettingsError && /GLANCE_ADBLOCK_LISTS/.test(error.message));
});

test("the Chromium launch mode passes through to the function, which validates it (lib/config.ts)", () => {
  assert.deepEqual(readSettings('dev', { GLANCE_CHROMIUM_MODE: 'multi' }).passThrough, { GLANCE_CHROMIUM_MODE: 'multi' });
});

test("embed.proxy's limit passes through only within what Lambda's 6 MB response can carry base64-encoded", () => {
  assert.deepEqual(readSettings('dev', { GLANCE_EMBED_PROXY_MAX_BYTES: '2000000' }).passThrough, { GLANCE_EMBED_PROXY_MAX_BYTES: '2000000' });
  assert.deepEqual(readSettings('dev', { GLANCE_EMBED_PROXY_MAX_BYTES: String(4 * 1024 * 1024) }).passThrough, { GLANCE_EMBED_PROXY_MAX_BYTES: '4194304' });
  for (const bad of ['4194305', '10485760', '100', 'lots']) {
    assert.throws(
      () => readSettings('dev', { GLANCE_EMBED_PROXY_MAX_BYTES: bad }),
      (error: Error) => error instanceof SettingsError && /GLANCE_EMBED_PROXY_MAX_BYTES.*4194304/.test(error.message),
      bad,
    );
  }
});

test('the browser switches (at init, spare) pass through as true or false, and anything else fails the deploy', () => {
  assert.deepEqual(readSettings('dev', { GLANCE_BROWSER_AT_INIT: 'TRUE', GLANCE_BROWSER_SPARE: ' false' }).passThrough, {
    GLANCE_BROWSER_AT_INIT: 'true',
    GLANCE_BROWSER_SPARE: 'false',
  });
  assert.deepEqual(readSettings('dev', { GLANCE_BROWSER_AT_INIT: '' }).passThrough, {});
  assert.throws(() => readSettings('dev', { GLANCE_BROWSER_AT_INIT: 'yes' }), (error: Error) => error instanceof SettingsError && /GLANCE_BROWSER_AT_INIT/.test(error.message));
});
