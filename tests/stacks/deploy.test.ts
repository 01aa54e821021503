/**
 * The deployable app, offline: the real SST app synthesised as `sst deploy` would (function bundled, its packages
 * copied beside it and the Chromium layer built, both from node_modules), then its CloudFormation template checked, then
 * the bundle CDK staged for upload imported from an isolated copy and invoked as Lambda would invoke it.
 * Everything synthesises in this one file because SST keeps per-project state in .sst/ that concurrent synths
 * would trample.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Request } from '@ghostery/adblocker';
import { PuppeteerBlocker } from '@ghostery/adblocker-puppeteer';
import { describeBundle } from './bundle.ts';
import { describeOperability } from './operability.ts';
import { describeSimulatedLambda } from './simulated.ts';
import { measure } from '../../stacks/lambda-size.ts';
import { describeSpend } from './spend.ts';
import { ACCOUNT, REGION, synth, type Synthesized } from './synth.ts';
import { list, render, resource, resources, roleStatements, type Statement } from './template.ts';

/** A deployer's own adblock list, outside the project as it would be. */
const OWN_LIST = join(mkdtempSync(join(tmpdir(), 'glance-own-list-')), 'easylist.txt');
writeFileSync(OWN_LIST, '[Adblock Plus 2.0]\n||widgets.glance-test.example^\n');
const CERT = `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/0f0e0d0c-1111-2222-3333-444455556666`;
/** A stage with every optional setting, and one that must never reach the function. */
const CONFIGURED = {
  GLANCE_API_KEYS_PARAMETER: '/glance/api-keys',
  GLANCE_CDN_DOMAIN: 'cdn.example.com',
  GLANCE_CDN_CERTIFICATE_ARN: CERT,
  GLANCE_API_DOMAIN: 'api.example.com',
  GLANCE_API_CERTIFICATE_ARN: CERT,
  GLANCE_THROTTLE_RATE: '5',
  GLANCE_THROTTLE_BURST: '10',
  GLANCE_MAX_BODY_BYTES: '2048',
  GLANCE_ALLOW_HOSTS: '127.0.0.1',
  GLANCE_RETENTION: '7d',
  GLANCE_RESERVED_CONCURRENCY: '25',
  GLANCE_WAF_RATE_LIMIT: '600',
  GLANCE_WAF_KEY_RATE_LIMIT: '300',
  GLANCE_RUNTIME: 'nodejs24.x',
  GLANCE_LOG_RETENTION_DAYS: '7',
  GLANCE_ALARM_EMAIL: 'ops@example.com',
  GLANCE_BUDGET_USD: '50',
  GLANCE_ADBLOCK_LISTS: OWN_LIST,
  GLANCE_BROWSER_AT_INIT: 'true',
};
const DAYS_31 = 31 * 24 * 3600;

let prod: Synthesized;
let dev: Synthesized;

before(async () => {
  const started = Date.now();
  prod = await synth('prod');
  dev = await synth('dev', { env: CONFIGURED });
  console.log(`synthesised two stages (function bundled, packages copied, layers staged) in ${Date.now() - started} ms`);
});
after(() => {
  prod?.dispose();
  dev?.dispose();
  rmSync(dirname(OWN_LIST), { recursive: true, force: true });
});

const fnOf = (s: Synthesized) => resource(s.template, 'AWS::Lambda::Function', 'ApiFunction');
const idOf = (s: Synthesized, type: string, prefix: string) => resource(s.template, type, prefix)[0];
const envOf = (s: Synthesized): Record<string, unknown> => fnOf(s)[1].Properties.Environment.Variables;
const statementsOf = (s: Synthesized) => roleStatements(s.template, idOf(s, 'AWS::IAM::Role', 'ApiFunctionServiceRole'));
const actionsOf = (statement: Statement) => list(statement.Action);

describe('the API', () => {
  test('an HTTP API routes GET /, HEAD /, OPTIONS /, GET /health, GET /openapi.json and ANY /mcp to the one API function', () => {
    const fnId = fnOf(prod)[0];
    const routes = Object.values(resources(prod.template, 'AWS::ApiGatewayV2::Route'));
    assert.deepEqual(routes.map((route) => route.Properties.RouteKey).sort(), ['ANY /mcp', 'GET /', 'GET /health', 'GET /openapi.json', 'HEAD /', 'OPTIONS /']);
    for (const route of routes) {
      const integrationId = render(route.Properties.Target).replace(/^integrations\/<(.*)>$/, '$1');
      const integration = prod.template.toJSON().Resources[integrationId].Properties;
      assert.equal(render(integration.IntegrationUri), `<${fnId}.Arn>`);
      assert.equal(integration.PayloadFormatVersion, '2.0');
    }
  });

  test('the default stage throttles routes, by default or as configured', () => {
    const throttle = (s: Synthesized) => resource(s.template, 'AWS::ApiGatewayV2::Stage', 'ApiDefaultStage')[1].Properties.DefaultRouteSettings;
    assert.deepEqual(throttle(prod), { ThrottlingBurstLimit: 20, ThrottlingRateLimit: 10 });
    assert.deepEqual(throttle(dev), { ThrottlingBurstLimit: 10, ThrottlingRateLimit: 5 });
  });
});

describe('the API function', () => {
  test('runs the ESM bundle of functions/api.ts on nodejs22.x (nodejs24.x when asked) with room for Chromium, traced without answers, on x86-64', () => {
    const fn = fnOf(prod)[1].Properties;
    assert.equal(envOf(prod).POWERTOOLS_TRACER_CAPTURE_RESPONSE, 'false', 'X-Ray keeps timings, never a body');
    assert.equal(fn.Runtime, 'nodejs22.x');
    assert.equal(fn.Handler, 'functions/api.handler');
    assert.equal(fn.MemorySize, 2048);
    assert.equal(fn.Timeout, 30);
    assert.deepEqual(fn.Architectures, ['x86_64']);
    assert.deepEqual(fn.TracingConfig, { Mode: 'Active' });
    assert.equal(fn.FunctionName, 'prod-glance-api');
    assert.equal(fnOf(dev)[1].Properties.Runtime, 'nodejs24.x');
    assert.ok(existsSync(join(prod.assetDir(fn.Code.S3Key), 'functions', 'api.mjs')), 'the staged code holds functions/api.mjs');
  });

  test('has the Chromium layer attached, holding @sparticuz/chromium where lib/browser/launch.ts imports it', () => {
    const [layerId, layer] = resource(prod.template, 'AWS::Lambda::LayerVersion', 'ChromiumLayer');
    const fontsId = idOf(prod, 'AWS::Lambda::LayerVersion', 'FontsLayer');
    assert.deepEqual(fnOf(prod)[1].Properties.Layers.map(render), [`<${layerId}>`, `<${fontsId}>`]);
    assert.deepEqual(layer.Properties.CompatibleRuntimes, ['nodejs22.x', 'nodejs24.x']);
    const staged = prod.assetDir(layer.Properties.Content.S3Key);
    const launch = readFileSync(new URL('../../lib/browser/launch.ts', import.meta.url), 'utf8');
    const modulePath = /'\/opt\/(nodejs\/node_modules\/@sparticuz\/chromium\/[^']+)'/.exec(launch)?.[1];
    assert.ok(modulePath, 'launch.ts names the layer module by path');
    assert.ok(existsSync(join(staged, modulePath)), `the layer holds /opt/${modulePath}`);
    assert.ok(statSync(join(staged, 'nodejs/node_modules/@sparticuz/chromium/bin/chromium.br')).size > 10_000_000, 'with the Chromium binary');
  });

  test('has the fonts layer attached: Noto for each script at /opt/fonts, where the Chromium layer\'s fontconfig looks', () => {
    const staged = prod.assetDir(resource(prod.template, 'AWS::Lambda::LayerVersion', 'FontsLayer')[1].Properties.Content.S3Key);
    const files = readdirSync(join(staged, 'fonts'));
    for (const family of ['NotoSansHans', 'NotoSansHant', 'NotoSansJP', 'NotoSansKR', 'NotoNaskhArabic', 'NotoSansHebrew', 'NotoSansDevanagari', 'NotoSansThai', 'noto-color-emoji']) {
      assert.ok(files.some((name) => name.startsWith(family) && /\.(otf|ttf)$/.test(name)), `${family} in ${files.join(', ')}`);
    }
    assert.ok(readdirSync(join(staged, 'fonts', 'licenses')).length >= 9, 'each package\'s font licence ships with it');
  });

  test('the function and its layers leave at least 15 % of Lambda\'s 250 MiB unzipped limit free', (t) => {
    // The function's own layers (CDK's deployment helper brings one of its own, zipped).
    const all = resources(prod.template, 'AWS::Lambda::LayerVersion');
    const layers = (fnOf(prod)[1].Properties.Layers as Array<{ Ref: string }>).map(({ Ref }) => ({
      name: Ref.replace(/[0-9A-F]{8}$/, ''),
      path: prod.assetDir(all[Ref]!.Properties.Content.S3Key),
    }));
    const report = measure([{ name: 'function', path: prod.assetDir(fnOf(prod)[1].Properties.Code.S3Key) }, ...layers]);
    t.diagnostic(report.summary);
    assert.equal(report.parts.length, 3, 'the function, the Chromium layer and the fonts layer');
    assert.ok(report.headroom >= 0.15, report.summary);
  });

  test('gets its buckets and CDN address from the resources, and only the settings meant for it', () => {
    const env = envOf(prod);
    assert.equal(render(env.GLANCE_S3_BUCKET), `<${idOf(prod, 'AWS::S3::Bucket', 'Assets')}>`);
    assert.equal(render(env.GLANCE_CACHE_BUCKET), `<${idOf(prod, 'AWS::S3::Bucket', 'Cache')}>`);
    assert.equal(render(env.CDN_URL), `https://<${idOf(prod, 'AWS::CloudFront::Distribution', 'AssetsCdn')}.DomainName>`);
    assert.equal(env.GLANCE_S3_REGION, REGION);
    assert.equal(env.NODE_OPTIONS, undefined, 'no --enable-source-maps: it costs ~120 ms of cold start');
    assert.equal(env.GLANCE_API_KEYS_PARAMETER, '/glance/prod/api-keys', 'nothing configured on a non-dev stage: the stage\'s keys');

    assert.equal(env.GLANCE_PUBLIC_URL, undefined, 'the CloudFront address would be a dependency cycle; the hop header covers it');
    const configured = envOf(dev);
    assert.equal(configured.CDN_URL, 'https://cdn.example.com');
    assert.equal(configured.GLANCE_PUBLIC_URL, 'https://api.example.com', 'a custom API domain is its own address, refused as a target');
    assert.equal(configured.GLANCE_API_KEYS_PARAMETER, '/glance/api-keys');
    assert.equal(configured.GLANCE_MAX_BODY_BYTES, '2048');
    assert.equal(configured.GLANCE_BROWSER_AT_INIT, 'true', 'the stage starts Chromium in the init phase');
    assert.equal(env.GLANCE_BROWSER_AT_INIT, undefined, 'off unless a stage asks for it');
    assert.equal(configured.GLANCE_ALLOW_HOSTS, undefined, 'the address-policy exemption never reaches Lambda');
  });

  test("carries the adblock engine prebuilt from the packaged lists and the deployer's, named where Lambda unpacks it", async () => {
    assert.equal(envOf(prod).GLANCE_ADBLOCK_ENGINE, '/var/task/adblock-engine.bin');
    assert.equal(envOf(dev).GLANCE_ADBLOCK_LISTS, undefined, 'the lists are in the engine');
    const engineOf = async (s: Synthesized) =>
      PuppeteerBlocker.deserialize(readFileSync(join(s.assetDir(fnOf(s)[1].Properties.Code.S3Key), 'adblock-engine.bin')));
    const blocked = (engine: PuppeteerBlocker, url: string) =>
      engine.match(Request.fromRawDetails({ url, sourceUrl: 'https://news.example/', type: 'script' })).match;
    const [own, plain] = [await engineOf(dev), await engineOf(prod)];
    assert.equal(blocked(own, 'https://widgets.glance-test.example/embed.js'), true, "the deployer's list is in dev's engine");
    assert.equal(blocked(plain, 'https://widgets.glance-test.example/embed.js'), false);
    for (const engine of [own, plain]) assert.equal(blocked(engine, 'https://securepubads.g.doubleclick.net/tag/js/gpt.js'), true);
  });

  test('may only use its two buckets, invoke itself, read its keys and write traces', () => {
    const statements = statementsOf(prod);
    const buckets = ['Assets', 'Cache'].map((name) => idOf(prod, 'AWS::S3::Bucket', name));
    for (const statement of statements) {
      assert.equal(statement.Effect, 'Allow');
      const actions = actionsOf(statement);
      assert.ok(!actions.some((action) => action === '*' || action.endsWith(':*')), `no wildcard actions: ${actions}`);
      const targets = list(statement.Resource).map(render);
      if (actions.some((action) => action.startsWith('s3:'))) {
        assert.ok(targets.every((target) => buckets.some((id) => target === `<${id}.Arn>` || target === `<${id}.Arn>/*`)), `s3 on the two buckets only: ${targets}`);
      } else if (targets.includes('*')) {
        assert.deepEqual(actions.sort(), ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], 'only X-Ray has no resource to name');
      }
    }
    const byAction = (action: string) => statements.filter((statement) => actionsOf(statement).includes(action)).flatMap((s) => list(s.Resource).map(render));
    assert.deepEqual(byAction('s3:GetObject').sort(), buckets.map((id) => `<${id}.Arn>/*`).sort());
    assert.deepEqual(byAction('s3:PutObject').sort(), buckets.map((id) => `<${id}.Arn>/*`).sort());
    assert.deepEqual(byAction('s3:ListBucket').sort(), buckets.map((id) => `<${id}.Arn>`).sort());
    assert.deepEqual(byAction('lambda:InvokeFunction'), [`arn:aws:lambda:${REGION}:${ACCOUNT}:function:prod-glance-api`]);
    assert.deepEqual(byAction('ssm:GetParameter'), [`arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/glance/prod/api-keys`], 'only the stage\'s keys');
  });

  test('with API keys configured, reads exactly that parameter and decrypts only through SSM for it', () => {
    const statements = statementsOf(dev);
    const parameter = `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/glance/api-keys`;
    const ssm = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('ssm:')));
    assert.deepEqual(ssm.map((statement) => [actionsOf(statement), list(statement.Resource).map(render)]), [[['ssm:GetParameter'], [parameter]]]);
    const kms = statements.filter((statement) => actionsOf(statement).includes('kms:Decrypt'));
    assert.equal(kms.length, 1);
    assert.deepEqual(list(kms[0]!.Resource).map(render), [`arn:aws:kms:${REGION}:${ACCOUNT}:key/*`]);
    const condition = kms[0]!.Condition?.StringEquals ?? {};
    assert.equal(render(condition['kms:ViaService']), `ssm.${REGION}.amazonaws.com`);
    assert.equal(render(condition['kms:EncryptionContext:PARAMETER_ARN']), parameter);
  });
});

describe('the buckets', () => {
  test('are private: public access blocked, encrypted, TLS only', () => {
    for (const [id, bucket] of Object.entries(resources(prod.template, 'AWS::S3::Bucket'))) {
      assert.deepEqual(bucket.Properties.PublicAccessBlockConfiguration, {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      }, id);
      assert.equal(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm, 'AES256', id);
    }
  });

  test('the asset bucket is read only by CloudFront, through Origin Access Control, for that distribution', () => {
    const assets = idOf(prod, 'AWS::S3::Bucket', 'Assets');
    const cdn = idOf(prod, 'AWS::CloudFront::Distribution', 'AssetsCdn');
    const policy = Object.values(resources(prod.template, 'AWS::S3::BucketPolicy')).find((p) => render(p.Properties.Bucket) === `<${assets}>`);
    const statements: Statement[] = policy?.Properties.PolicyDocument.Statement ?? [];
    assert.ok(statements.some((s) => s.Effect === 'Deny' && render(s.Condition?.Bool?.['aws:SecureTransport']) === 'false'), 'plain HTTP denied');
    const allows = statements.filter((statement) => statement.Effect === 'Allow');
    assert.equal(allows.length, 1);
    assert.deepEqual(allows[0]!.Principal, { Service: 'cloudfront.amazonaws.com' });
    assert.deepEqual(actionsOf(allows[0]!), ['s3:GetObject']);
    assert.equal(render(allows[0]!.Condition?.StringEquals?.['AWS:SourceArn']), `arn:aws:cloudfront::${ACCOUNT}:distribution/<${cdn}>`);

    const [oacId, oac] = resource(prod.template, 'AWS::CloudFront::OriginAccessControl', 'AssetsCdn');
    assert.deepEqual(oac.Properties.OriginAccessControlConfig.SigningBehavior, 'always');
    const origin = resource(prod.template, 'AWS::CloudFront::Distribution', 'AssetsCdn')[1].Properties.DistributionConfig.Origins[0];
    assert.equal(render(origin.OriginAccessControlId), `<${oacId}.Id>`);
    assert.equal(origin.S3OriginConfig.OriginAccessIdentity, '', 'no legacy OAI');
    prod.template.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
  });

  test('the result cache and the assets forget objects after the retention: 31 days by default, GLANCE_RETENTION when set', () => {
    const expiries = (s: Synthesized, bucket: string) =>
      resource(s.template, 'AWS::S3::Bucket', bucket)[1]
        .Properties.LifecycleConfiguration.Rules.filter((rule: { Status: string }) => rule.Status === 'Enabled')
        .map((rule: { ExpirationInDays?: number }) => rule.ExpirationInDays)
        .filter(Boolean);
    for (const bucket of ['Cache', 'Assets']) {
      assert.deepEqual(expiries(prod, bucket), [31], bucket);
      assert.deepEqual(expiries(dev, bucket), [7], bucket);
    }
    assert.equal(envOf(prod).GLANCE_RETENTION, '31d', 'the function keeps the same retention');
    assert.equal(envOf(dev).GLANCE_RETENTION, '7d');
  });

  test('are kept when a prod stage is removed, deleted with any other stage', () => {
    for (const bucket of Object.values(resources(prod.template, 'AWS::S3::Bucket'))) assert.equal(bucket.DeletionPolicy, 'Retain');
    for (const bucket of Object.values(resources(dev.template, 'AWS::S3::Bucket'))) assert.equal(bucket.DeletionPolicy, 'Delete');
  });
});

describe('the CloudFront distributions', () => {
  const apiCdn = (s: Synthesized) => resource(s.template, 'AWS::CloudFront::Distribution', 'ApiCdn')[1].Properties.DistributionConfig;
  const cachePolicy = (s: Synthesized) => resource(s.template, 'AWS::CloudFront::CachePolicy', 'ApiCachePolicy')[1].Properties.CachePolicyConfig;

  test('the API distribution keys on the whole query string and lets s-maxage decide, up to 31 days', () => {
    const policy = cachePolicy(prod);
    assert.equal(policy.MinTTL, 0);
    assert.equal(policy.DefaultTTL, 0);
    assert.ok(policy.MaxTTL >= DAYS_31);
    const key = policy.ParametersInCacheKeyAndForwardedToOrigin;
    assert.deepEqual(key.QueryStringsConfig, { QueryStringBehavior: 'all' });
    assert.deepEqual(key.HeadersConfig, { HeaderBehavior: 'whitelist', Headers: ['x-api-key'] }, 'keyed: one caller\'s answer is never served to another');
    assert.deepEqual(key.CookiesConfig, { CookieBehavior: 'none' });
    assert.equal(key.EnableAcceptEncodingGzip, true);
    assert.equal(key.EnableAcceptEncodingBrotli, true);
  });

  test('the API distribution compresses, allows GET/HEAD/OPTIONS and forwards the query, the API key, the hop header and Accept to the HTTP API', () => {
    const config = apiCdn(prod);
    const behavior = config.DefaultCacheBehavior;
    assert.equal(behavior.Compress, true);
    assert.deepEqual(behavior.AllowedMethods, ['GET', 'HEAD', 'OPTIONS']);
    assert.equal(render(behavior.CachePolicyId), `<${idOf(prod, 'AWS::CloudFront::CachePolicy', 'ApiCachePolicy')}>`);
    const [requestPolicyId, requestPolicy] = resource(prod.template, 'AWS::CloudFront::OriginRequestPolicy', 'ApiOriginRequestPolicy');
    assert.equal(render(behavior.OriginRequestPolicyId), `<${requestPolicyId}>`);
    const forwarded = requestPolicy.Properties.OriginRequestPolicyConfig;
    assert.deepEqual(forwarded.QueryStringsConfig, { QueryStringBehavior: 'all' });
    assert.deepEqual(forwarded.HeadersConfig, { HeaderBehavior: 'whitelist', Headers: ['x-api-key', 'x-glance-hop', 'accept', 'cloudfront-viewer-address'] });
    const origin = config.Origins.find((candidate: { Id: string }) => candidate.Id === behavior.TargetOriginId);
    assert.equal(render(origin.DomainName), `<${idOf(prod, 'AWS::ApiGatewayV2::Api', 'Api')}>.execute-api.${REGION}.amazonaws.com`);
    assert.equal(origin.CustomOriginConfig.OriginProtocolPolicy, 'https-only');
    assert.ok(origin.CustomOriginConfig.OriginReadTimeout > 30, 'CloudFront outwaits API Gateway, so it never retries a running request');
  });

  test('custom domains take their certificates, and become the public addresses', () => {
    const assetCdn = resource(dev.template, 'AWS::CloudFront::Distribution', 'AssetsCdn')[1].Properties.DistributionConfig;
    for (const [config, domain] of [[assetCdn, 'cdn.example.com'], [apiCdn(dev), 'api.example.com']] as const) {
      assert.deepEqual(config.Aliases, [domain]);
      assert.equal(config.ViewerCertificate.AcmCertificateArn, CERT);
      assert.equal(config.ViewerCertificate.SslSupportMethod, 'sni-only');
    }
    const outputs = dev.template.toJSON().Outputs;
    assert.equal(render(outputs.ApiEndpoint.Value), 'https://api.example.com');
    assert.equal(render(outputs.CdnUrl.Value), 'https://cdn.example.com');
  });

  test('the HTTP API answers only CloudFront: the function requires the secret the distribution adds to every request', () => {
    for (const s of [prod, dev]) {
      const [secretId] = resource(s.template, 'AWS::SecretsManager::Secret', 'OriginSecret');
      const reference = `{{resolve:secretsmanager:<${secretId}>:SecretString:::}}`;
      const origin = apiCdn(s).Origins.find((o: { DomainName: unknown }) => render(o.DomainName).includes('execute-api'));
      assert.deepEqual(origin.OriginCustomHeaders.map((h: { HeaderName: string; HeaderValue: unknown }) => [h.HeaderName, render(h.HeaderValue)]), [['x-glance-origin', reference]]);
      assert.equal(render(envOf(s).GLANCE_ORIGIN_SECRET), reference);
    }
  });

  test('the outputs name the API endpoint, the raw HTTP API and the CDN', () => {
    const outputs = prod.template.toJSON().Outputs;
    assert.equal(render(outputs.ApiEndpoint.Value), `https://<${idOf(prod, 'AWS::CloudFront::Distribution', 'ApiCdn')}.DomainName>`);
    assert.equal(render(outputs.HttpApiUrl.Value), `<${idOf(prod, 'AWS::ApiGatewayV2::Api', 'Api')}.ApiEndpoint>`);
    assert.equal(render(outputs.CdnUrl.Value), `https://<${idOf(prod, 'AWS::CloudFront::Distribution', 'AssetsCdn')}.DomainName>`);
  });
});

describeSpend(() => ({ prod, dev }));
describeOperability(() => ({ prod, dev }));
describeBundle(() => prod);
describeSimulatedLambda(() => prod);
