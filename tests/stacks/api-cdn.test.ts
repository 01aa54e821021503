/**
 * The API's CloudFront distribution on a bare CDK stack (no SST synth, so it runs in milliseconds): the open-API
 * case, which the synthesised stages of deploy.test.ts no longer show since every non-dev stage is keyed; the origin
 * secret; no custom error response CloudFront does not document.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Template } from 'aws-cdk-lib/assertions';
import { createApiCdn } from '../../stacks/api-cdn.ts';
import { createOriginSecret } from '../../stacks/origin-secret.ts';
import { ACCOUNT, REGION } from './synth.ts';
import { resource } from './template.ts';

function synthesized(keyed: boolean): Template {
  const stack = new Stack(new App(), 'Cdn', { env: { account: ACCOUNT, region: REGION } });
  createApiCdn(stack, new HttpApi(stack, 'Api'), { domain: undefined, keyed, originSecret: createOriginSecret(stack), webAclId: undefined });
  return Template.fromStack(stack);
}

const cacheKeyHeaders = (keyed: boolean) =>
  resource(synthesized(keyed), 'AWS::CloudFront::CachePolicy', 'ApiCachePolicy')[1].Properties.CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin.HeadersConfig;

test('an open API keys the edge cache on the query string alone; a keyed one on the API key too', () => {
  assert.deepEqual(cacheKeyHeaders(false), { HeaderBehavior: 'none' });
  assert.deepEqual(cacheKeyHeaders(true), { HeaderBehavior: 'whitelist', Headers: ['x-api-key'] });
});

test('every request to the HTTP API carries the generated origin secret, resolved by CloudFormation, never in the template', () => {
  const template = synthesized(true);
  const [secretId, secret] = resource(template, 'AWS::SecretsManager::Secret', 'OriginSecret');
  assert.deepEqual(secret.Properties.GenerateSecretString, { ExcludePunctuation: true, IncludeSpace: false, PasswordLength: 48 });
  const [origin] = resource(template, 'AWS::CloudFront::Distribution', 'ApiCdn')[1].Properties.DistributionConfig.Origins;
  assert.equal(origin.OriginCustomHeaders.length, 1);
  assert.equal(origin.OriginCustomHeaders[0].HeaderName, 'x-glance-origin');
  assert.deepEqual(origin.OriginCustomHeaders[0].HeaderValue, { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] });
});

test('no custom error response: 429, which throttled callers get, is not among the codes CloudFront documents for one', () => {
  const config = resource(synthesized(true), 'AWS::CloudFront::Distribution', 'ApiCdn')[1].Properties.DistributionConfig;
  assert.equal(config.CustomErrorResponses, undefined);
  assert.deepEqual(config.CacheBehaviors.map((behavior: { PathPattern: string }) => behavior.PathPattern), ['/mcp'], 'no error-page behavior either');
});

test("CloudFront's viewer address reaches the function (the access record's client), outside the cache key", () => {
  const template = synthesized(true);
  const forwarded = resource(template, 'AWS::CloudFront::OriginRequestPolicy', 'ApiOriginRequestPolicy')[1].Properties.OriginRequestPolicyConfig.HeadersConfig;
  assert.ok(forwarded.Headers.includes('cloudfront-viewer-address'));
  assert.ok(!cacheKeyHeaders(true).Headers.includes('cloudfront-viewer-address'));
});

test('/mcp is a behaviour of its own: every method, never cached, every viewer header but Host forwarded', () => {
  const { CacheBehaviors: behaviors } = resource(synthesized(true), 'AWS::CloudFront::Distribution', 'ApiCdn')[1].Properties.DistributionConfig;
  const mcp = behaviors.find((behavior: { PathPattern: string }) => behavior.PathPattern === '/mcp');
  assert.deepEqual(mcp.AllowedMethods.sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
  // CloudFront's managed CachingDisabled and AllViewerExceptHostHeader policies.
  assert.equal(mcp.CachePolicyId, '4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
  assert.equal(mcp.OriginRequestPolicyId, 'b689b0a8-53d0-40ab-baf2-68738e2966ac');
});
