/**
 * The API's CloudFront distribution on a bare CDK stack (no SST synth, so it runs in milliseconds): the open-API
 * case, which the synthesised stages of deploy.test.ts no longer show since every non-dev stage is keyed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Template } from 'aws-cdk-lib/assertions';
import { createApiCdn } from '../../stacks/api-cdn.ts';
import { ACCOUNT, REGION } from './synth.ts';
import { resource } from './template.ts';

const cacheKeyHeaders = (keyed: boolean) => {
  const stack = new Stack(new App(), 'Cdn', { env: { account: ACCOUNT, region: REGION } });
  createApiCdn(stack, new HttpApi(stack, 'Api'), { domain: undefined, keyed, errorPages: { behaviors: {}, errorResponses: [] }, webAclId: undefined });
  const policy = resource(Template.fromStack(stack), 'AWS::CloudFront::CachePolicy', 'ApiCachePolicy')[1];
  return policy.Properties.CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin.HeadersConfig;
};

test('an open API keys the edge cache on the query string alone; a keyed one on the API key too', () => {
  assert.deepEqual(cacheKeyHeaders(false), { HeaderBehavior: 'none' });
  assert.deepEqual(cacheKeyHeaders(true), { HeaderBehavior: 'whitelist', Headers: ['x-api-key'] });
});

test('/mcp is a behaviour of its own: every method, never cached, every viewer header but Host forwarded', () => {
  const stack = new Stack(new App(), 'Cdn', { env: { account: ACCOUNT, region: REGION } });
  createApiCdn(stack, new HttpApi(stack, 'Api'), { domain: undefined, keyed: true, errorPages: { behaviors: {}, errorResponses: [] }, webAclId: undefined });
  const { CacheBehaviors: behaviors } = resource(Template.fromStack(stack), 'AWS::CloudFront::Distribution', 'ApiCdn')[1].Properties.DistributionConfig;
  const mcp = behaviors.find((behavior: { PathPattern: string }) => behavior.PathPattern === '/mcp');
  assert.deepEqual(mcp.AllowedMethods.sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
  // CloudFront's managed CachingDisabled and AllViewerExceptHostHeader policies.
  assert.equal(mcp.CachePolicyId, '4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
  assert.equal(mcp.OriginRequestPolicyId, 'b689b0a8-53d0-40ab-baf2-68738e2966ac');
});
