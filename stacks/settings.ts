/**
 * Deployment settings, read once from the environment `sst deploy` runs in. SST v2 loads `.env`, `.env.local`,
 * `.env.<stage>` and `.env.<stage>.local` into that environment first, so per-stage values live in `.env.<stage>`.
 */

import { parseDuration } from '../lib/query/duration.ts';

type Env = Record<string, string | undefined>;

const DAY_MS = 24 * 3_600_000;
/** The longest `ttl` a request may ask for (docs/CONTRACT.md §2): nothing cached may outlive what it names. */
const DEFAULT_RETENTION_DAYS = 31;

export interface CustomDomain {
  /** The host name, e.g. `cdn.example.com`; its DNS record (CNAME or alias) is the deployer's to create. */
  readonly name: string;
  /** An ACM certificate covering `name`; CloudFront only takes certificates from us-east-1. */
  readonly certificateArn: string;
}

export interface Settings {
  /** Custom domain of the asset CDN (screenshots, PDFs); else its cloudfront.net address. */
  readonly cdnDomain: CustomDomain | undefined;
  /** Custom domain of the API's CloudFront distribution; else its cloudfront.net address. */
  readonly apiDomain: CustomDomain | undefined;
  /** Name or ARN of an existing SSM SecureString parameter holding the API keys; none means an open API. */
  readonly apiKeysParameter: string | undefined;
  /** HTTP API default-route throttling: steady requests per second and burst size. */
  readonly throttle: { readonly rate: number; readonly burst: number };
  /** Whole days the buckets keep an object after its creation (GLANCE_RETENTION, rounded up; default 31, the
   *  longest `ttl`): cached answers, and screenshots and PDFs, which a put of the same bytes creates anew. */
  readonly retentionDays: number;
  /** Function settings passed through unchanged when set (lib/config.ts validates them at cold start). */
  readonly passThrough: Readonly<Record<string, string>>;
}

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/**
 * Function settings a deployer may tune. GLANCE_ALLOW_HOSTS is deliberately absent: it exempts hosts from the
 * public-address check, which only local development and tests may do.
 */
const PASS_THROUGH = ['GLANCE_MAX_BODY_BYTES', 'GLANCE_USER_AGENT', 'GLANCE_DOCS_URL', 'GLANCE_CACHE', 'GLANCE_CHROMIUM_MODE'] as const;

const CLOUDFRONT_CERTIFICATE = /^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const PARAMETER = /^(arn:aws[\w-]*:ssm:[\w-]+:\d{12}:parameter\/[\w./-]+|\/?[\w./-]{1,2048})$/;

function domain(env: Env, name: string, certificate: string): CustomDomain | undefined {
  const host = env[name]?.trim();
  const arn = env[certificate]?.trim();
  if (!host && !arn) return undefined;
  if (!host || !HOST_NAME.test(host)) throw new SettingsError(`${name} must be a host name (e.g. cdn.example.com), got "${host ?? ''}"`);
  if (!arn || !CLOUDFRONT_CERTIFICATE.test(arn)) {
    throw new SettingsError(`${certificate} must be the ARN of an ACM certificate in us-east-1 covering ${host}, got "${arn ?? ''}"`);
  }
  return { name: host.toLowerCase(), certificateArn: arn };
}

function positive(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new SettingsError(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** S3 lifecycle rules count in whole days: a retention is rounded up to them. */
function retentionDays(env: Env): number {
  const raw = env.GLANCE_RETENTION;
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_DAYS;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < DAY_MS) throw new SettingsError(`GLANCE_RETENTION must be a duration of at least 1d (e.g. 31d), got "${raw}"`);
  return Math.ceil(ms / DAY_MS);
}

export function readSettings(env: Env = process.env): Settings {
  const apiKeysParameter = env.GLANCE_API_KEYS_PARAMETER?.trim() || undefined;
  if (apiKeysParameter && !PARAMETER.test(apiKeysParameter)) {
    throw new SettingsError(`GLANCE_API_KEYS_PARAMETER must be an SSM parameter name or ARN, got "${apiKeysParameter}"`);
  }
  const passThrough: Record<string, string> = {};
  for (const name of PASS_THROUGH) {
    const value = env[name];
    if (value) passThrough[name] = value;
  }
  return Object.freeze({
    cdnDomain: domain(env, 'GLANCE_CDN_DOMAIN', 'GLANCE_CDN_CERTIFICATE_ARN'),
    apiDomain: domain(env, 'GLANCE_API_DOMAIN', 'GLANCE_API_CERTIFICATE_ARN'),
    apiKeysParameter,
    // Each request may hold a Chromium for up to 28 s: the defaults keep one burst of callers from buying
    // hundreds of concurrent browsers.
    throttle: Object.freeze({ rate: positive(env, 'GLANCE_THROTTLE_RATE', 50), burst: positive(env, 'GLANCE_THROTTLE_BURST', 100) }),
    retentionDays: retentionDays(env),
    passThrough: Object.freeze(passThrough),
  });
}
