/**
 * The asset CDN on a bare CDK stack (no SST synth, so it runs in milliseconds): stored screenshots and PDFs are
 * answered with `access-control-allow-origin: *`, which is why `embed.proxy` still redirects to them (docs/parameters.md, embed);
 * stored HTML reports run sandboxed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { createAssetCdn } from '../../stacks/assets.ts';
import { ACCOUNT, REGION } from './synth.ts';
import { render, resource } from './template.ts';

function synthesized(): Template {
  const stack = new Stack(new App(), 'Assets', { env: { account: ACCOUNT, region: REGION } });
  createAssetCdn(stack, new Bucket(stack, 'Bucket'), undefined);
  return Template.fromStack(stack);
}

test("the asset CDN answers with CloudFront's managed SimpleCORS policy (access-control-allow-origin: *)", () => {
  const config = resource(synthesized(), 'AWS::CloudFront::Distribution', 'AssetsCdn')[1].Properties.DistributionConfig;
  // AWS's id of Managed-SimpleCORS, whose only header is Access-Control-Allow-Origin: * (CloudFront developer guide,
  // "Use managed response headers policies").
  assert.equal(config.DefaultCacheBehavior.ResponseHeadersPolicyId, '60669652-455b-4ae9-85a4-c4c02393f86c');
});

test('a stored HTML report is answered with a sandboxing CSP (its scripts run in an opaque origin), CORS kept', () => {
  const template = synthesized();
  const config = resource(template, 'AWS::CloudFront::Distribution', 'AssetsCdn')[1].Properties.DistributionConfig;
  const reports = config.CacheBehaviors.find((behavior: { PathPattern: string }) => behavior.PathPattern === '*.html');
  assert.ok(reports, 'a behavior for *.html');
  const [policyId, policy] = resource(template, 'AWS::CloudFront::ResponseHeadersPolicy', 'ReportHeaders');
  assert.equal(render(reports.ResponseHeadersPolicyId), `<${policyId}>`);
  const headers = policy.Properties.ResponseHeadersPolicyConfig;
  assert.deepEqual(headers.SecurityHeadersConfig.ContentSecurityPolicy, { ContentSecurityPolicy: 'sandbox allow-scripts allow-popups', Override: true });
  assert.deepEqual(headers.CorsConfig.AccessControlAllowOrigins, { Items: ['*'] });
  assert.equal(reports.TargetOriginId, config.DefaultCacheBehavior.TargetOriginId, 'from the same bucket');
});
