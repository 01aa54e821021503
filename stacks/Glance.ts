/**
 * Glance on AWS: CloudFront (optionally behind WAF rate rules) → API Gateway HTTP API (throttled; answering only
 * requests carrying CloudFront's origin secret) → one Lambda function (functions/api.ts, optionally reserved
 * concurrency) with Chromium from a layer; screenshots and PDFs in a private
 * bucket behind a second CloudFront distribution; cached answers in a private bucket; both buckets forget objects
 * after the retention (31 days by default); alarms, a dashboard, an optional monthly budget and log retention on every
 * log group.
 * Settings: stacks/settings.ts.
 */
import { Duration } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type BucketProps } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { useProject } from 'sst/project.js';
import { Api, Function as SstFunction, type StackContext } from 'sst/constructs';
import { DOCS_URL } from '../lib/config.ts';
import { createApiCdn } from './api-cdn.ts';
import { createAssetCdn } from './assets.ts';
import { buildChromiumLayer, CHROMIUM_PACKAGE } from './chromium-layer.ts';
import { buildFontsLayer } from './fonts-layer.ts';
import { retainLogs } from './log-groups.ts';
import { createBudget } from './budget.ts';
import { createMonitoring, describeTarget, warnIfNobodyListens } from './monitoring.ts';
import { createOriginSecret } from './origin-secret.ts';
import { apiKeysStatements, bucketStatements, selfInvokeStatement } from './permissions.ts';
import { createRateLimitAcl } from './rate-limit.ts';
import { ENGINE_PATH, writeAdblockEngine } from './adblock-engine.ts';
import { FUNCTION_BUNDLING, FUNCTION_FILES } from './bundling.ts';
import { shipPackages } from './function-packages.ts';
import { checkLambdaSize } from './lambda-size.ts';
import { pruneUnused } from './prune.ts';
import { readSettings } from './settings.ts';

function privateBucket(scope: Construct, id: string, props: BucketProps = {}): Bucket {
  return new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    ...props,
  });
}

export function Glance({ app, stack }: StackContext) {
  const settings = readSettings(app.stage);
  const docsUrl = settings.passThrough.GLANCE_DOCS_URL ?? DOCS_URL;
  retainLogs(stack, settings.logRetentionDays);
  const root = useProject().paths.root;

  // A cached answer lives at most `ttl` (at most 31 days, the default retention); an asset is created anew each
  // time an answer names it again (lib/aws/s3-storage.ts), so it outlives every answer naming it.
  const expiry = Duration.days(settings.retentionDays);
  const assets = privateBucket(stack, 'Assets', {
    lifecycleRules: [{ id: 'expire-assets', expiration: expiry, abortIncompleteMultipartUploadAfter: Duration.days(1) }],
  });
  const cache = privateBucket(stack, 'Cache', {
    lifecycleRules: [{ id: 'expire-cached-answers', expiration: expiry, abortIncompleteMultipartUploadAfter: Duration.days(1) }],
  });
  const assetCdn = createAssetCdn(stack, assets, settings.cdnDomain);

  const layer = buildChromiumLayer(root);
  const chromium = new LayerVersion(stack, 'ChromiumLayer', {
    code: Code.fromAsset(layer.path),
    compatibleRuntimes: [Runtime.NODEJS_22_X, Runtime.NODEJS_24_X],
    // The package ships the x86-64 build of Chromium only.
    compatibleArchitectures: [Architecture.X86_64],
    description: `${CHROMIUM_PACKAGE} ${layer.version} for Glance`,
  });
  // Noto for CJK, Arabic, Hebrew, Devanagari, Thai and colour emoji, at /opt/fonts (stacks/fonts-layer.ts).
  const fontsLayer = buildFontsLayer(root);
  const fonts = new LayerVersion(stack, 'FontsLayer', {
    code: Code.fromAsset(fontsLayer.path),
    compatibleRuntimes: [Runtime.NODEJS_22_X, Runtime.NODEJS_24_X],
    description: 'Noto fonts for Glance screenshots',
  });

  // A fixed name lets the function's policy name the function itself without a dependency cycle.
  const functionName = app.logicalPrefixedName('api');
  const originSecret = createOriginSecret(stack);
  const fn = new SstFunction(stack, 'ApiFunction', {
    handler: 'functions/api.handler',
    functionName,
    // nodejs22.x leaves standard support in April 2027; GLANCE_RUNTIME=nodejs24.x moves before that.
    runtime: settings.runtime,
    architecture: 'x86_64',
    // Chromium wants memory, and Lambda gives CPU in proportion to it.
    memorySize: 2048,
    // The request budget is 28 s (docs/CONTRACT.md §2); the function gets a little more to answer ETIMEOUT itself.
    timeout: 30,
    tracing: 'active',
    // When set, the most instances (each with its Chromium) that callers can buy at once, and never starved by
    // other functions of the account: the bound on compute spend (docs/deployment.md, What it costs). Not by default: Lambda
    // refuses a reservation leaving the account fewer than 100 unreserved (stacks/settings.ts).
    ...(settings.reservedConcurrency ? { reservedConcurrentExecutions: settings.reservedConcurrency } : {}),
    layers: [chromium, fonts],
    // ESM, minified, split into chunks loaded on first use, no source maps (stacks/bundling.ts); the technology
    // rules beside the chunks.
    nodejs: FUNCTION_BUNDLING,
    copyFiles: FUNCTION_FILES,
    // After the bundle: puppeteer-core, Lighthouse, sharp and the data packages at the lock file's versions
    // (stacks/function-packages.ts), the adblock engine built from the lists (GLANCE_ADBLOCK_ENGINE below), then
    // the size check, before anything is uploaded. `sst dev` runs the function here, on this checkout's
    // node_modules (linked), where the packages and the lists already are.
    hooks:
      app.mode === 'deploy'
        ? {
            afterBuild: async (_props, out) => {
              await shipPackages(root, out);
              await writeAdblockEngine(out, settings.adblockLists);
              pruneUnused(out);
              const size = checkLambdaSize([
                { name: 'function', path: out },
                { name: 'Chromium layer', path: layer.path },
                { name: 'fonts layer', path: fontsLayer.path },
              ]);
              console.log(`Glance: ${size.summary}`);
            },
          }
        : {},
    environment: {
      GLANCE_S3_BUCKET: assets.bucketName,
      GLANCE_S3_REGION: stack.region,
      CDN_URL: assetCdn.url,
      // Its own address is never fetched (lib/guard/loop.ts). Only a custom domain can be named here: the API
      // distribution's own domain depends on the function, which would be a cycle; the hop header covers that case.
      ...(settings.apiDomain ? { GLANCE_PUBLIC_URL: `https://${settings.apiDomain.name}` } : {}),
      GLANCE_CACHE_BUCKET: cache.bucketName,
      GLANCE_RETENTION: `${settings.retentionDays}d`,
      ...(settings.apiKeysParameter ? { GLANCE_API_KEYS_PARAMETER: settings.apiKeysParameter } : {}),
      ...(app.mode === 'deploy' ? { GLANCE_ADBLOCK_ENGINE: ENGINE_PATH } : {}),
      // Resolved by CloudFormation (stacks/origin-secret.ts): requests without it did not come through CloudFront.
      GLANCE_ORIGIN_SECRET: originSecret,
      // X-Ray keeps timings and errors, never an answer (functions/api.ts says so to the tracer too).
      POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
      ...settings.passThrough,
    },
  });
  // The self-invocation refreshing a stale entry: one try, and dropped when it waited a minute, since by then
  // another caller's STALE answer asks again. Lambda's default (2 retries, 6 hours) would render it up to thrice.
  fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.seconds(60) });
  fn.attachPermissions([
    ...bucketStatements([assets, cache]),
    selfInvokeStatement(stack, functionName),
    ...(settings.apiKeysParameter ? apiKeysStatements(stack, settings.apiKeysParameter) : []),
  ]);

  const api = new Api(stack, 'Api', {
    // The function's own CORS middleware answers preflights; API Gateway's would replace its exposed x-* headers.
    cors: false,
    defaults: { throttle: settings.throttle },
    // `/mcp` takes every method: the function answers POST, its preflight, and 405 to the rest (lib/mcp/doors.ts).
    routes: { 'GET /': fn, 'HEAD /': fn, 'OPTIONS /': fn, 'GET /health': fn, 'GET /openapi.json': fn, 'ANY /mcp': fn },
  });
  const waf = settings.waf.perIp || settings.waf.perKey ? createRateLimitAcl(stack, settings.waf, docsUrl) : undefined;
  const apiCdn = createApiCdn(stack, api.cdk.httpApi, {
    domain: settings.apiDomain,
    keyed: Boolean(settings.apiKeysParameter),
    originSecret,
    webAclId: waf?.attrArn,
  });
  const dashboard = createMonitoring(stack, {
    fn,
    functionName,
    httpApi: api.cdk.httpApi,
    target: settings.alarms,
    reservedConcurrency: settings.reservedConcurrency,
  });
  warnIfNobodyListens(stack, settings.alarms);
  if (settings.monthlyBudgetUsd) createBudget(stack, settings.monthlyBudgetUsd, settings.alarms);

  stack.addOutputs({
    ApiEndpoint: { value: apiCdn.url, description: 'The API, through CloudFront: call this' },
    HttpApiUrl: { value: api.url, description: 'The HTTP API itself: answers only requests that came through ApiEndpoint' },
    AlarmTarget: { value: describeTarget(settings.alarms), description: 'Where the alarms go (npm run smoke reports it)' },
    CdnUrl: { value: assetCdn.url, description: 'Where screenshots and PDFs are served (CDN_URL)' },
    DashboardUrl: {
      value: `https://${stack.region}.console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards:name=${dashboard.dashboardName}`,
      description: 'The CloudWatch dashboard',
    },
    ApiDistributionDomain: apiCdn.distribution.distributionDomainName,
    CdnDistributionDomain: assetCdn.distribution.distributionDomainName,
    AssetsBucket: assets.bucketName,
    CacheBucket: cache.bucketName,
  });
  return { api, fn, assets, cache };
}
