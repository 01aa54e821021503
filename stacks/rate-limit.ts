/**
 * Callers over a limit get the contract's ERATE payload (docs/CONTRACT.md §3), 429, from the edge:
 * - API Gateway's throttle answers its own `{"message":"Too Many Requests"}`, which an HTTP API cannot change
 *   (no gateway responses, unlike REST APIs). The API's CloudFront distribution replaces every 429 from its origin
 *   with ERATE, a custom error page; CloudFront reads such pages only from an origin, so the body is a file in a
 *   small private bucket, uploaded at deploy and served under ERROR_PAGES_PATH.
 * - The optional WAF rules count requests over 5 minutes per client IP (GLANCE_WAF_RATE_LIMIT) and per API key
 *   (GLANCE_WAF_KEY_RATE_LIMIT), and block the excess at CloudFront with the same body, before API Gateway, Lambda
 *   or the cache are paid for.
 * The body is rendered by the function's own error code path (lib/http/respond.ts), so it cannot drift from it.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { AllowedMethods, CachePolicy, ViewerProtocolPolicy, type BehaviorOptions, type ErrorResponse } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { GlanceError } from '../lib/errors.ts';
import { errorResponse } from '../lib/http/respond.ts';
import { SettingsError, type WafLimits } from './settings.ts';
import { joined } from '../lib/text/pieces.ts';

/** Under the API's address, but never a route of the function (it serves `/` only). */
export const ERROR_PAGES_PATH = '/_glance/errors';
const ERATE_FILE = 'erate.json';
/** API Gateway refills its token bucket every second and WAF re-evaluates every few: a minute is honest. */
export const RETRY_AFTER_S = 60;
/** WAF's window for the per-IP count: its default, and the one its limit (at least 10) is documented for. */
export const WAF_WINDOW_S = 300;

export const erateBody = (docsUrl: string): string =>
  joined(errorResponse(new GlanceError('ERATE', `Too many requests from this caller: slow down and retry in ${RETRY_AFTER_S} seconds.`), {
    requestId: '',
    docsUrl,
    target: undefined,
  }).body);

export interface ErrorPages {
  /** For the API distribution's `additionalBehaviors`. */
  readonly behaviors: Record<string, BehaviorOptions>;
  readonly errorResponses: ErrorResponse[];
}

export function createErrorPages(scope: Construct, bucket: IBucket, docsUrl: string): ErrorPages {
  const prefix = ERROR_PAGES_PATH.slice(1);
  new BucketDeployment(scope, 'ErrorPagesDeployment', {
    destinationBucket: bucket,
    destinationKeyPrefix: prefix,
    sources: [Source.data(ERATE_FILE, erateBody(docsUrl))],
    contentType: 'application/json; charset=utf-8',
    // The edge keeps the page (a burst of 429s must not become a burst of S3 GETs) and sees a new one within minutes.
    cacheControl: [CacheControl.fromString('public, max-age=300')],
    memoryLimit: 256,
  });
  return {
    behaviors: {
      [`${ERROR_PAGES_PATH}/*`]: {
        origin: S3BucketOrigin.withOriginAccessControl(bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      },
    },
    // ttl 0: a throttled answer is never kept for the next caller of the same address.
    errorResponses: [{ httpStatus: 429, responseHttpStatus: 429, responsePagePath: `${ERROR_PAGES_PATH}/${ERATE_FILE}`, ttl: Duration.seconds(0) }],
  };
}

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
