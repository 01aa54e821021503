/**
 * Bounded spend, checked on the synthesised templates deploy.test.ts registers these with: `prod` with every
 * default, `dev` with the optional settings (reserved concurrency 25, a WAF limit of 600 per 5 minutes, a $50 budget).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DOCS_URL } from '../../lib/config.ts';
import { ERRORS } from '../../lib/errors.ts';

import type { Synthesized } from './synth.ts';
import { render, resource, resources } from './template.ts';

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
    test('no reserved concurrency by default (a new account under 110 could not deploy one), GLANCE_RESERVED_CONCURRENCY when set', () => {
      const { prod, dev } = stages();
      assert.equal(fnOf(prod).ReservedConcurrentExecutions, undefined);
      assert.equal(fnOf(dev).ReservedConcurrentExecutions, 25);
    });

    test("API Gateway's own 429 passes through as it is: no CloudFront custom error response (429 is not one CloudFront documents), no error-page bucket", () => {
      const { prod, dev } = stages();
      for (const s of [prod, dev]) {
        assert.equal(apiCdn(s).CustomErrorResponses, undefined);
        assert.equal(Object.keys(resources(s.template, 'AWS::S3::Bucket')).filter((id) => id.startsWith('ErrorPages')).length, 0);
        s.template.resourceCountIs('Custom::CDKBucketDeployment', 0);
      }
    });

    test('a monthly budget only when asked, alerting the alarm target', () => {
      const { prod, dev } = stages();
      prod.template.resourceCountIs('AWS::Budgets::Budget', 0);
      const [, budget] = resource(dev.template, 'AWS::Budgets::Budget', 'MonthlyBudget');
      assert.deepEqual(budget.Properties.Budget.BudgetLimit, { Amount: 50, Unit: 'USD' });
      assert.deepEqual(budget.Properties.NotificationsWithSubscribers[0].Subscribers, [{ SubscriptionType: 'EMAIL', Address: 'ops@example.com' }]);
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
