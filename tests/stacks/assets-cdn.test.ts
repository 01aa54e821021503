/**
 * The asset CDN on a bare CDK stack (no SST synth, so it runs in milliseconds): stored screenshots and PDFs are
 * answered with `access-control-allow-origin: *`, which is why `embed.proxy` still redirects to them (README, embed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { createAssetCdn } from '../../stacks/assets.ts';
import { ACCOUNT, REGION } from './synth.ts';
import { resource } from './template.ts';

test("the asset CDN answers with CloudFront's managed SimpleCORS policy (access-control-allow-origin: *)", () => {
  const stack = new Stack(new App(), 'Assets', { env: { account: ACCOUNT, region: REGION } });
  createAssetCdn(stack, new Bucket(stack, 'Bucket'), undefined);
  const config = resource(Template.fromStack(stack), 'AWS::CloudFront::Distribution', 'AssetsCdn')[1].Properties.DistributionConfig;
  // AWS's id of Managed-SimpleCORS, whose only header is Access-Control-Allow-Origin: * (CloudFront developer guide,
  // "Use managed response headers policies").
  assert.equal(config.DefaultCacheBehavior.ResponseHeadersPolicyId, '60669652-455b-4ae9-85a4-c4c02393f86c');
});
