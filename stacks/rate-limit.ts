/**
 * Callers over a limit get the contract's ERATE payload (docs/CONTRACT.md §3), 429, from the edge: the optional WAF
 * rules count requests over 5 minutes per client IP (GLANCE_WAF_RATE_LIMIT) and per API key
 * (GLANCE_WAF_KEY_RATE_LIMIT), and block the excess at CloudFront with a WAF custom response (status 429 and a JSON
 * body are both documented for it: AWS WAF Developer Guide, "Supported status codes for custom responses"), before
 * API Gateway, Lambda or the cache are paid for. The body is rendered by the function's own error code path
 * (lib/http/respond.ts), so it cannot drift from it.
 *
 * API Gateway's throttle, always on, answers its own 429 `{"message":"Too Many Requests"}`, which an HTTP API cannot
 * change (no gateway responses) and CloudFront passes on as it is: a CloudFront custom error response cannot replace
 * it, since 429 is not among the codes CloudFront documents for them (400, 403, 404, 405, 414, 416, 500-504; CloudFront
 * Developer Guide, "Create a custom error page for specific HTTP status codes").
 */
import { Stack } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { GlanceError } from '../lib/errors.ts';
import { errorResponse } from '../lib/http/respond.ts';
import { SettingsError, type WafLimits } from './settings.ts';
import { joined } from '../lib/text/pieces.ts';

/** WAF re-evaluates a rate-based rule every few seconds over its window: a minute is honest. */
export const RETRY_AFTER_S = 60;
/** WAF's window for the per-IP count: its default, and the one its limit (at least 10) is documented for. */
export const WAF_WINDOW_S = 300;

export const erateBody = (docsUrl: string): string =>
  joined(errorResponse(new GlanceError('ERATE', `Too many requests from this caller: slow down and retry in ${RETRY_AFTER_S} seconds.`), {
    requestId: '',
    docsUrl,
    target: undefined,
  }).body);

const BLOCK_WITH_ERATE: CfnWebACL.RuleActionProperty = {
  block: {
    customResponse: {
      responseCode: 429,
      customResponseBodyKey: 'ERATE',
      responseHeaders: [
        { name: 'retry-after', value: String(RETRY_AFTER_S) },
        { name: 'cache-control', value: 'no-store' },
        // Browser callers can read the refusal, as they can every other error.
        { name: 'access-control-allow-origin', value: '*' },
      ],
    },
  },
};

/** Counted per API key: a request without the header is not counted by this rule (the function answers it EAUTH). */
const API_KEY: CfnWebACL.RateBasedStatementCustomKeyProperty = {
  header: { name: 'x-api-key', textTransformations: [{ priority: 0, type: 'NONE' }] },
};

/** A CloudFront-scoped web ACL: allow, except a client IP or an API key over its limit per 5 minutes, which gets ERATE. */
export function createRateLimitAcl(scope: Construct, limits: WafLimits, docsUrl: string): CfnWebACL {
  const stack = Stack.of(scope);
  // A web ACL for CloudFront exists only in us-east-1 (WAF's global scope), so the stack must be there.
  if (!stack.region.startsWith('us-east-1')) {
    throw new SettingsError(`GLANCE_WAF_RATE_LIMIT and GLANCE_WAF_KEY_RATE_LIMIT need the stack in us-east-1 (CloudFront's WAF scope), not ${stack.region}`);
  }
  const metricName = (suffix: string) => `${stack.stackName}-${suffix}`.replace(/[^\w-]/g, '-');
  const rule = (name: string, priority: number, statement: CfnWebACL.RateBasedStatementProperty): CfnWebACL.RuleProperty => ({
    name,
    priority,
    statement: { rateBasedStatement: { ...statement, evaluationWindowSec: WAF_WINDOW_S } },
    action: BLOCK_WITH_ERATE,
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: metricName(name), sampledRequestsEnabled: true },
  });
  const rules = [
    ...(limits.perIp ? [rule('rate-per-ip', 0, { limit: limits.perIp, aggregateKeyType: 'IP' })] : []),
    ...(limits.perKey ? [rule('rate-per-key', 1, { limit: limits.perKey, aggregateKeyType: 'CUSTOM_KEYS', customKeys: [API_KEY] })] : []),
  ];
  return new CfnWebACL(scope, 'ApiWebAcl', {
    scope: 'CLOUDFRONT',
    description: `${stack.stackName}: Glance API, ERATE past ${[
      limits.perIp && `${limits.perIp} requests per IP`,
      limits.perKey && `${limits.perKey} per API key`,
    ].filter(Boolean).join(', ')} per ${WAF_WINDOW_S / 60} minutes`,
    defaultAction: { allow: {} },
    customResponseBodies: { ERATE: { contentType: 'APPLICATION_JSON', content: erateBody(docsUrl) } },
    rules,
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: metricName('api'), sampledRequestsEnabled: true },
  });
}
