/**
 * Deployment settings, read once from the environment `sst deploy` runs in. SST v2 loads `.env`, `.env.local`,
 * `.env.<stage>` and `.env.<stage>.local` into that environment first, so per-stage values live in `.env.<stage>`.
 */

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LAMBDA_EMBED_PROXY_MAX_BYTES } from '../lib/config.ts';
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

/** Log groups keep this many days (a value CloudWatch Logs accepts). */
const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;
export type LogRetentionDays = (typeof LOG_RETENTION_DAYS)[number];

const RUNTIMES = ['nodejs22.x', 'nodejs24.x'] as const;
export type Runtime = (typeof RUNTIMES)[number];

/** Where alarms go: a new topic with an e-mail subscription, an existing topic, both, or nowhere (console only). */
export interface AlarmTarget {
  readonly email: string | undefined;
  readonly topicArn: string | undefined;
}

export interface WafLimits {
  /** Per client IP address (GLANCE_WAF_RATE_LIMIT). */
  readonly perIp: number | undefined;
  /** Per API key (GLANCE_WAF_KEY_RATE_LIMIT); needs keys. */
  readonly perKey: number | undefined;
}

export interface Settings {
  /** Custom domain of the asset CDN (screenshots, PDFs); else its cloudfront.net address. */
  readonly cdnDomain: CustomDomain | undefined;
  /** Custom domain of the API's CloudFront distribution; else its cloudfront.net address. */
  readonly apiDomain: CustomDomain | undefined;
  /** Name or ARN of an SSM SecureString parameter holding the API keys; none means an open API. Non-dev stages get
   *  `/glance/<stage>/api-keys` unless GLANCE_OPEN_API=true. */
  readonly apiKeysParameter: string | undefined;
  /** HTTP API default-route throttling: steady requests per second and burst size. */
  readonly throttle: { readonly rate: number; readonly burst: number };
  /** Concurrent executions reserved for (and the most allowed to) the function; undefined, the default: none
   *  reserved, since Lambda refuses any reservation that leaves the account fewer than 100 unreserved. */
  readonly reservedConcurrency: number | undefined;
  /** GLANCE_BUDGET_USD: a monthly AWS Budget on the account's costs, alerting the alarm target; undefined: none. */
  readonly monthlyBudgetUsd: number | undefined;
  /** WAF rate rules on the API's CloudFront, each answering ERATE past its limit of requests per 5 minutes. */
  readonly waf: WafLimits;
  readonly runtime: Runtime;
  readonly logRetentionDays: LogRetentionDays;
  readonly alarms: AlarmTarget;
  /** Whole days the buckets keep an object after its creation (GLANCE_RETENTION, rounded up; default 31, the
   *  longest `ttl`): cached answers, and screenshots and PDFs, which a put of the same bytes creates anew. */
  readonly retentionDays: number;
  /** The deployer's adblock filter lists (GLANCE_ADBLOCK_LISTS), absolute paths on this machine: built into the
   *  engine the bundle carries (stacks/adblock-engine.ts). */
  readonly adblockLists: readonly string[];
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
const PASS_THROUGH = ['GLANCE_MAX_BODY_BYTES', 'GLANCE_EMBED_PROXY_MAX_BYTES', 'GLANCE_USER_AGENT', 'GLANCE_DOCS_URL', 'GLANCE_CACHE', 'GLANCE_CHROMIUM_MODE'] as const;
/**
 * Browser switches (docs/deployment.md, Configuration), checked here so a typo fails the deploy rather than every cold start:
 * GLANCE_BROWSER_AT_INIT starts Chromium in the init phase (for deployments that mostly take screenshots),
 * GLANCE_BROWSER_SPARE=false keeps no spare page.
 */
const PASS_THROUGH_FLAGS = ['GLANCE_BROWSER_AT_INIT', 'GLANCE_BROWSER_SPARE'] as const;

const CLOUDFRONT_CERTIFICATE = /^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TOPIC = /^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]{1,256}$/;
/** Stages that get an open API unless told otherwise: the developer's own. Every other stage is keyed by default. */
const DEV_STAGE = /^(dev|development|local)(-.*)?$/;
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

function oneOf<T extends string | number>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = values.find((candidate) => String(candidate) === raw.trim());
  if (value === undefined) throw new SettingsError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'true' && raw !== 'false') throw new SettingsError(`${name} must be true or false, got "${env[name]}"`);
  return raw === 'true';
}

/**
 * Keys unless the API is opened on purpose: an explicit parameter, else for a non-dev stage (or GLANCE_OPEN_API=false)
 * the stage's conventional parameter, which must exist before the first request (until then every request is EFATAL).
 */
function apiKeysParameter(env: Env, stage: string): string | undefined {
  const named = env.GLANCE_API_KEYS_PARAMETER?.trim() || undefined;
  const open = flag(env, 'GLANCE_OPEN_API');
  if (named && open) throw new SettingsError('GLANCE_OPEN_API=true and GLANCE_API_KEYS_PARAMETER contradict each other: set one');
  if (named && !PARAMETER.test(named)) {
    throw new SettingsError(`GLANCE_API_KEYS_PARAMETER must be an SSM parameter name or ARN, got "${named}"`);
  }
  if (named) return named;
  const keyed = open === undefined ? !DEV_STAGE.test(stage) : !open;
  return keyed ? `/glance/${stage}/api-keys` : undefined;
}

/**
 * None by default: Lambda keeps 100 concurrent executions of an account unreserved, so reserving 10 fails the deploy
 * of every account whose limit is under 110, as new accounts' often are. 10 (~4 screenshots/s) once the account's
 * limit allows it is the bound docs/deployment.md's "What it costs" works out; `off` is the default said aloud.
 */
function reservedConcurrency(env: Env): number | undefined {
  if (env.GLANCE_RESERVED_CONCURRENCY?.trim().toLowerCase() === 'off') return undefined;
  const reserved = positive(env, 'GLANCE_RESERVED_CONCURRENCY', 0);
  return reserved === 0 ? undefined : reserved;
}

/** A budget alert goes where the alarms go: without a target nobody would hear it. */
function monthlyBudgetUsd(env: Env, alarms: AlarmTarget): number | undefined {
  if (!env.GLANCE_BUDGET_USD) return undefined;
  const usd = positive(env, 'GLANCE_BUDGET_USD', 0);
  if (!alarms.email && !alarms.topicArn) throw new SettingsError('GLANCE_BUDGET_USD alerts GLANCE_ALARM_EMAIL or GLANCE_ALARM_TOPIC_ARN: set one');
  return usd;
}

/** WAF counts rate-based rules over 5 minutes here and refuses limits under 10. */
function wafLimit(env: Env, name: string): number | undefined {
  if (!env[name]) return undefined;
  const limit = positive(env, name, 0);
  if (limit < 10) throw new SettingsError(`${name} must be at least 10 (requests per 5 minutes), got "${limit}"`);
  return limit;
}

function wafLimits(env: Env, keyed: boolean): WafLimits {
  const perKey = wafLimit(env, 'GLANCE_WAF_KEY_RATE_LIMIT');
  if (perKey && !keyed) throw new SettingsError('GLANCE_WAF_KEY_RATE_LIMIT counts requests per API key: it needs API keys, and this API is open');
  return Object.freeze({ perIp: wafLimit(env, 'GLANCE_WAF_RATE_LIMIT'), perKey });
}

function alarmTarget(env: Env): AlarmTarget {
  const email = env.GLANCE_ALARM_EMAIL?.trim() || undefined;
  const topicArn = env.GLANCE_ALARM_TOPIC_ARN?.trim() || undefined;
  if (email && !EMAIL.test(email)) throw new SettingsError(`GLANCE_ALARM_EMAIL must be an e-mail address, got "${email}"`);
  if (topicArn && !TOPIC.test(topicArn)) throw new SettingsError(`GLANCE_ALARM_TOPIC_ARN must be an SNS topic ARN, got "${topicArn}"`);
  return { email, topicArn };
}

/** S3 lifecycle rules count in whole days: a retention is rounded up to them. */
function retentionDays(env: Env): number {
  const raw = env.GLANCE_RETENTION;
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_DAYS;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < DAY_MS) throw new SettingsError(`GLANCE_RETENTION must be a duration of at least 1d (e.g. 31d), got "${raw}"`);
  return Math.ceil(ms / DAY_MS);
}

/** Comma-separated paths, relative to where `sst` runs; each must exist now rather than fail every cold start. */
function adblockLists(env: Env): readonly string[] {
  const paths = (env.GLANCE_ADBLOCK_LISTS ?? '').split(',').map((path) => path.trim()).filter(Boolean).map((path) => resolve(path));
  for (const path of paths) if (!existsSync(path)) throw new SettingsError(`GLANCE_ADBLOCK_LISTS: no file at "${path}"`);
  return Object.freeze(paths);
}

/**
 * `embed.proxy`'s bytes travel back to API Gateway base64-encoded inside Lambda's 6 MB response: a larger limit
 * would deploy answers Lambda cannot return, so it is refused here rather than at every cold start.
 */
function embedProxyMaxBytes(env: Env): void {
  const raw = env.GLANCE_EMBED_PROXY_MAX_BYTES;
  if (raw === undefined || raw === '') return;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1024 || value > LAMBDA_EMBED_PROXY_MAX_BYTES) {
    throw new SettingsError(
      `GLANCE_EMBED_PROXY_MAX_BYTES must be an integer from 1024 to ${LAMBDA_EMBED_PROXY_MAX_BYTES} in Lambda (its 6 MB response holds the bytes base64-encoded), got "${raw}"`,
    );
  }
}

export function readSettings(stage: string, env: Env = process.env): Settings {
  embedProxyMaxBytes(env);
  const keys = apiKeysParameter(env, stage);
  const passThrough: Record<string, string> = {};
  for (const name of PASS_THROUGH) {
    const value = env[name];
    if (value) passThrough[name] = value;
  }
  for (const name of PASS_THROUGH_FLAGS) {
    const value = flag(env, name);
    if (value !== undefined) passThrough[name] = String(value);
  }
  const alarms = Object.freeze(alarmTarget(env));
  return Object.freeze({
    cdnDomain: domain(env, 'GLANCE_CDN_DOMAIN', 'GLANCE_CDN_CERTIFICATE_ARN'),
    apiDomain: domain(env, 'GLANCE_API_DOMAIN', 'GLANCE_API_CERTIFICATE_ARN'),
    apiKeysParameter: keys,
    // Each request may hold a Chromium for up to 28 s: the defaults keep one burst of callers from buying
    // hundreds of concurrent browsers (docs/deployment.md, What it costs: the worst case at these defaults).
    throttle: Object.freeze({ rate: positive(env, 'GLANCE_THROTTLE_RATE', 10), burst: positive(env, 'GLANCE_THROTTLE_BURST', 20) }),
    reservedConcurrency: reservedConcurrency(env),
    monthlyBudgetUsd: monthlyBudgetUsd(env, alarms),
    waf: wafLimits(env, keys !== undefined),
    runtime: oneOf(env, 'GLANCE_RUNTIME', RUNTIMES, 'nodejs22.x'),
    logRetentionDays: oneOf<LogRetentionDays>(env, 'GLANCE_LOG_RETENTION_DAYS', LOG_RETENTION_DAYS, 30),
    alarms,
    retentionDays: retentionDays(env),
    adblockLists: adblockLists(env),
    passThrough: Object.freeze(passThrough),
  });
}
