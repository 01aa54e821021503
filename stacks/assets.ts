/**
 * Where screenshots and PDFs live: a private bucket read only by CloudFront through Origin Access Control, the
 * CloudFront distribution in front of it, and the address the function builds asset URLs from (its CDN_URL).
 * Stored Lighthouse HTML reports (`*.html`) run their own scripts: they are served sandboxed, in an opaque origin,
 * as the local service serves them (lib/storage/serve.ts).
 */
import { Stack } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  HeadersFrameOption,
  Distribution,
  HttpVersion,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type IResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { CustomDomain } from './settings.ts';

export interface AssetCdn {
  readonly distribution: Distribution;
  /** `https://` plus the custom domain or the distribution's own domain; no trailing slash. */
  readonly url: string;
}

/** The `domainNames`/`certificate` pair of a distribution with a custom domain, else nothing. */
export function customDomainProps(scope: Construct, id: string, domain: CustomDomain | undefined) {
  if (!domain) return {};
  return {
    domainNames: [domain.name],
    certificate: Certificate.fromCertificateArn(scope, id, domain.certificateArn),
    minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
  };
}

/** The sandbox a stored HTML report runs in: its scripts and its links' new windows, never the CDN's origin. */
export const REPORT_CSP = 'sandbox allow-scripts allow-popups';

/** `*.html` answers: the same CORS as every asset, plus the sandbox, not to be framed, no sniffing. */
function reportHeaders(scope: Construct): ResponseHeadersPolicy {
  return new ResponseHeadersPolicy(scope, 'ReportHeaders', {
    comment: 'Glance: stored Lighthouse reports, sandboxed',
    corsBehavior: {
      accessControlAllowOrigins: ['*'],
      accessControlAllowMethods: ['GET', 'HEAD'],
      accessControlAllowHeaders: ['*'],
      accessControlAllowCredentials: false,
      originOverride: true,
    },
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: REPORT_CSP, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
    },
  });
}

export function createAssetCdn(scope: Construct, bucket: Bucket, domain: CustomDomain | undefined): AssetCdn {
  // OAC (not the legacy OAI): CloudFront signs its requests, and the bucket policy this adds allows only the
  // CloudFront service principal for this distribution's ARN, read-only.
  const origin = S3BucketOrigin.withOriginAccessControl(bucket);
  const behavior = (responseHeadersPolicy: IResponseHeadersPolicy): BehaviorOptions => ({
    origin,
    viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
    allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
    // Keys are content hashes stored with `immutable`: nothing but the path needs to be in the cache key.
    cachePolicy: CachePolicy.CACHING_OPTIMIZED,
    responseHeadersPolicy,
    compress: true,
  });
  const distribution = new Distribution(scope, 'AssetsCdn', {
    comment: `${Stack.of(scope).stackName}: Glance screenshots and PDFs`,
    // Pages fetch()ing or drawing a screenshot on a canvas need CORS; <img> does not care.
    defaultBehavior: behavior(ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS),
    additionalBehaviors: { '*.html': behavior(reportHeaders(scope)) },
    httpVersion: HttpVersion.HTTP2_AND_3,
    ...customDomainProps(scope, 'AssetsCertificate', domain),
  });
  return { distribution, url: `https://${domain?.name ?? distribution.distributionDomainName}` };
}
