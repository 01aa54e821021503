/**
 * Bounded spend, checked on the synthesised templates deploy.test.ts registers these with: `prod` with every
 * default, `dev` with the optional settings (reserved concurrency 25, a WAF limit of 600 per 5 minutes).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DOCS_URL } from '../../lib/config.ts';
import { ERRORS } from '../../lib/errors.ts';
import { erateBody, ERROR_PAGES_PATH } from '../../stacks/rate-limit.ts';
import type { Synthesized } from './synth.ts';
import { render, resource } from './template.ts';

interface Stages {
  readonly prod: Synthesized;
  readonly dev: Synthesized;
}

const fnOf = (s: Synthesized) => resource(s.template, 'AWS::Lambda::Function', 'ApiFunction')[1].Properties;
const apiCdn = (s: Synthesized) => resource(s.template, 'AWS::CloudFront::Distribution', 'ApiCdn')[1].Properties.DistributionConfig;

/** The contract's failure payload for ERATE (docs/CONTRACT.md §3). */
function assertErate(body: string): void {
  const payload = JSON.parse(body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(payload).sort(), ['code', 'data', 'message', 'more', 'status', 'url']);
  assert.equal(payload.status, 'fail');
  assert.equal(payload.code, 'ERATE');
  assert.equal(ERRORS.ERATE, 429);
  assert.match(String(payload.message), /retry in 60 seconds/);
  assert.equal(payload.more, DOCS_URL);
}

export function describeSpend(stages: () => Stages): void {
  describe('bounded spend', () => {
    test('the function reserves 10 concurrent executions by default, GLANCE_RESERVED_CONCURRENCY when set', () => {
      const { prod, dev } = stages();
      assert.equal(fnOf(prod).ReservedConcurrentExecutions, 10);
      assert.equal(fnOf(dev).ReservedConcurrentExecutions, 25);
    });

    test("API Gateway's own 429 reaches callers as ERATE: CloudFront replaces it with a page from a private bucket, never cached", () => {
      const { prod } = stages();
      const config = apiCdn(prod);
      assert.deepEqual(config.CustomErrorResponses, [
        { ErrorCode: 429, ResponseCode: 429, ResponsePagePath: `${ERROR_PAGES_PATH}/erate.json`, ErrorCachingMinTTL: 0 },
      ]);
      const [bucketId] = resource(prod.template, 'AWS::S3::Bucket', 'ErrorPages');
      const behavior = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === `${ERROR_PAGES_PATH}/*`);
      assert.ok(behavior, 'a behavior serves the error pages');
      assert.deepEqual(behavior.AllowedMethods, ['GET', 'HEAD']);
      const origin = config.Origins.find((o: { Id: string }) => o.Id === behavior.TargetOriginId);
      assert.equal(render(origin.DomainName), `<${bucketId}.RegionalDomainName>`);
      assert.ok(origin.OriginAccessControlId, 'read through Origin Access Control');

      const [, upload] = resource(prod.template, 'Custom::CDKBucketDeployment', 'ErrorPagesDeployment');
      assert.equal(render(upload.Properties.DestinationBucketName), `<${bucketId}>`);
      assert.equal(upload.Properties.DestinationBucketKeyPrefix, ERROR_PAGES_PATH.slice(1));
      assert.equal(upload.Properties.SystemMetadata['content-type'], 'application/json; charset=utf-8');
      const [key] = upload.Properties.SourceObjectKeys;
      const uploaded = readFileSync(join(prod.assetDir(key), 'erate.json'), 'utf8');
      assert.equal(uploaded, erateBody(DOCS_URL));
      assertErate(uploaded);
    });

    test('no WAF unless asked: then per-IP and per-key rate rules on the API distribution block with ERATE', () => {
      const { prod, dev } = stages();
      prod.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
      assert.equal(apiCdn(prod).WebACLId, undefined);

      const [aclId, acl] = resource(dev.template, 'AWS::WAFv2::WebACL', 'ApiWebAcl');
      assert.equal(render(apiCdn(dev).WebACLId), `<${aclId}.Arn>`);
      assert.equal(acl.Properties.Scope, 'CLOUDFRONT');
      assert.deepEqual(acl.Properties.DefaultAction, { Allow: {} });
      const [perIp, perKey] = acl.Properties.Rules;
      assert.deepEqual(perIp.Statement, { RateBasedStatement: { Limit: 600, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } });
      assert.deepEqual(perKey.Statement, {
        RateBasedStatement: {
          Limit: 300,
          AggregateKeyType: 'CUSTOM_KEYS',
          CustomKeys: [{ Header: { Name: 'x-api-key', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
          EvaluationWindowSec: 300,
        },
      });
      for (const rule of [perIp, perKey]) {
        const response = rule.Action.Block.CustomResponse;
        assert.equal(response.ResponseCode, 429);
        assert.deepEqual(response.ResponseHeaders.find((h: { Name: string }) => h.Name === 'retry-after'), { Name: 'retry-after', Value: '60' });
        const body = acl.Properties.CustomResponseBodies[response.CustomResponseBodyKey];
        assert.equal(body.ContentType, 'APPLICATION_JSON');
        assertErate(body.Content);
      }
    });
  });
}
