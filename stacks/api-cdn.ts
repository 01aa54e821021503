/**
 * The CloudFront distribution in front of the HTTP API. The function says how long an answer may be kept
 * (`cache-control: public, max-age=0, s-maxage=<ttl>[, stale-while-revalidate=<staleTtl>]`, docs/CONTRACT.md §3), so the
 * cache policy only bounds it (min 0, default 0: an answer without s-maxage is not kept; max 31 days, the largest
 * `ttl`) and defines what makes two requests the same: the whole query string, plus the API key when keys exist.
 *
 * Headers: `x-api-key` is forwarded (and keyed when keys are configured, so one caller's answer is never served to
 * a caller without a key). `x-api-header-*` (docs/CONTRACT.md §2 `headers`) is NOT forwarded: CloudFront can neither
 * forward nor key a header prefix, and forwarding them unkeyed would serve an answer fetched with one caller's
 * cookie or authorization to everybody. Through this distribution, send target headers as `headers.<name>=`
 * query parameters (part of the key).
 *
 * Keys and the edge cache: with keys, an answer is cached under the key that asked for it, so a key's cached
 * answers are only ever served to that same key. A revoked key can still replay, until their `ttl`, the answers it
 * was already given (the same requests, nothing new is computed for it); every other request of it reaches the
 * function, which refuses it within the 5 minutes the keys are cached (docs/CONTRACT.md §3 `EAUTH`).
 *
 * Every request to the origin carries the origin secret (stacks/origin-secret.ts); the function refuses the ones
 * without it, so the HTTP API's own address does not go around this distribution or its WAF rules.
 *
 * `/mcp` (the MCP endpoint, lib/mcp/) is a behaviour of its own: POST, never cached, every viewer header but Host
 * forwarded (`Authorization` carries the key, `Mcp-Protocol-Version` the protocol). Its answers are JSON-RPC, which a
 * shared cache must not keep; the tools' queries meet the function's own result cache.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachedMethods,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Construct } from 'constructs';
import { ORIGIN_HEADER } from '../lib/http/origin-guard.ts';
import { MCP_PATH } from '../lib/mcp/doors.ts';
import { customDomainProps } from './assets.ts';
import type { CustomDomain } from './settings.ts';

/** The longest `ttl` a request may ask for (docs/CONTRACT.md §2). */
export const MAX_TTL = Duration.days(31);

export interface ApiCdn {
  readonly distribution: Distribution;
  /** `https://` plus the custom domain or the distribution's own domain. */
  readonly url: string;
}

export interface ApiCdnOptions {
  readonly domain: CustomDomain | undefined;
  readonly keyed: boolean;
  /** The origin secret's value (stacks/origin-secret.ts), added to every request to the HTTP API. */
  readonly originSecret: string;
  /** The WAF web ACL's ARN, when there is one. */
  readonly webAclId: string | undefined;
}

export function createApiCdn(scope: Construct, httpApi: HttpApi, options: ApiCdnOptions): ApiCdn {
  const stack = Stack.of(scope);
  const cachePolicy = new CachePolicy(scope, 'ApiCachePolicy', {
    comment: 'Glance answers: keyed on the whole query string, kept as long as s-maxage says',
    queryStringBehavior: CacheQueryStringBehavior.all(),
    headerBehavior: options.keyed ? CacheHeaderBehavior.allowList('x-api-key') : CacheHeaderBehavior.none(),
    cookieBehavior: CacheCookieBehavior.none(),
    minTtl: Duration.seconds(0),
    defaultTtl: Duration.seconds(0),
    maxTtl: MAX_TTL,
    enableAcceptEncodingGzip: true,
    enableAcceptEncodingBrotli: true,
  });
  const originRequestPolicy = new OriginRequestPolicy(scope, 'ApiOriginRequestPolicy', {
    comment: 'Glance: the query string and the API key reach the function',
    queryStringBehavior: OriginRequestQueryStringBehavior.all(),
    // x-glance-hop (lib/guard/loop.ts) must reach the function, or a Glance calling this endpoint would go
    // unrecognised. It is not in the cache key: its answer (ELOOP) is no-store, and a cached answer costs no loop.
    // `accept` tells a browser at the bare address (the playground page) from a program (EINVALURL); not in the
    // key either: both of those answers are no-store, and every other answer is the same whatever it says.
    // `cloudfront-viewer-address`, CloudFront's own, names the caller in the access record (API Gateway's source
    // IP is the edge's); not in the key.
    headerBehavior: OriginRequestHeaderBehavior.allowList('x-api-key', 'x-glance-hop', 'accept', 'cloudfront-viewer-address'),
    cookieBehavior: OriginRequestCookieBehavior.none(),
  });
  // The HTTP API's own host: API Gateway routes on the Host header, so the viewer's Host must not be forwarded.
  const origin = new HttpOrigin(`${httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
    protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    // API Gateway gives up at 30 s and answers 503 itself; a longer wait here means CloudFront never times out
    // first and retries a GET, which would start the same 28-second browser job again.
    readTimeout: Duration.seconds(35),
    customHeaders: { [ORIGIN_HEADER]: options.originSecret },
  });
  const distribution = new Distribution(scope, 'ApiCdn', {
    comment: `${stack.stackName}: Glance API`,
    defaultBehavior: {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      cachePolicy,
      originRequestPolicy,
      compress: true,
    },
    additionalBehaviors: {
      [MCP_PATH]: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
    },
    ...(options.webAclId ? { webAclId: options.webAclId } : {}),
    httpVersion: HttpVersion.HTTP2_AND_3,
    ...customDomainProps(scope, 'ApiCertificate', options.domain),
  });
  return { distribution, url: `https://${options.domain?.name ?? distribution.distributionDomainName}` };
}
