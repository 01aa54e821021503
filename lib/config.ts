/**
 * Configuration is read from the environment once, validated, frozen and passed down. Nothing below lib/
 * reads process.env.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { AddressPolicy } from './guard/policy.ts';
import { parseDuration } from './query/duration.ts';
import { TIMEOUT } from './query/options.ts';

/** The longest `ttl` a request may ask for (docs/CONTRACT.md §2), and so the default retention. */
export const DEFAULT_RETENTION_MS = 31 * 24 * 3_600_000;

export interface Config {
  /** Port of the local service. */
  readonly port: number;
  /** Address the local service listens on: loopback unless told otherwise (`0.0.0.0` in a container). */
  readonly host: string;
  /** On SIGTERM/SIGINT, how long the local service lets requests in flight finish before it answers them EBUSY. */
  readonly shutdownGraceMs: number;
  /** Address of the local service as callers reach it (used for links back to it, e.g. the local CDN). */
  readonly publicUrl: string;
  /** Which targets may be fetched: public unicast only, plus the GLANCE_ALLOW_HOSTS exemptions. */
  readonly policy: AddressPolicy;
  /** Largest target body read, in bytes. */
  readonly maxBodyBytes: number;
  /** Largest media file `embed.proxy` answers itself, in bytes (GLANCE_EMBED_PROXY_MAX_BYTES); in Lambda at most
   *  LAMBDA_EMBED_PROXY_MAX_BYTES. */
  readonly embedProxyMaxBytes: number;
  /** Default user agent sent to targets (a current desktop Chrome; many sites answer bots differently). */
  readonly userAgent: string;
  /** Where the docs' error section lives (docs/errors.md); the error payload's `more`. */
  readonly docsUrl: string;
  /** Where stored images and PDFs live: S3 when a bucket is configured, else a folder served by the local service. */
  readonly storage: StorageSettings;
  /** GLANCE_RETENTION in ms: how long the local folders keep a file after its last write. */
  readonly retention: number;
  /** Public base address of stored objects: an object's URL is `${cdnUrl}/${key}`. */
  readonly cdnUrl: string;
  /**
   * Which Chromium to run: `lambda` uses @sparticuz/chromium from its layer; `local` finds Debian's or `path`.
   * `processes` (GLANCE_CHROMIUM_MODE): `multi`, one long-lived browser whose pages each get an isolated context
   * and renderer; `single`, `--single-process`, where only the default context works, so each page gets a
   * browser of its own, launched for it and closed after it (docs/deployment.md, Browser lifecycle).
   */
  readonly chromium: { readonly mode: 'lambda' | 'local'; readonly path: string | undefined; readonly processes: ChromiumProcesses };
  /** Chromium flags added to Glance's own (tests and benchmarks keep Chromium's DNS on the machine with them). */
  readonly chromiumArgs: readonly string[];
  /**
   * Where the adblock engine comes from: the packaged lists plus `lists` (GLANCE_ADBLOCK_LISTS, Adblock Plus
   * syntax), parsed on first use; or, when `engine` is set (GLANCE_ADBLOCK_ENGINE), an engine serialized ahead of
   * time from the same lists (the Lambda bundle carries one), loaded instead.
   */
  readonly adblock: AdblockSettings;
  /** Pages one Chromium serves before it is replaced (Gotenberg's habit): leaks and fragmentation do not pile up. */
  readonly browserMaxPages: number;
  /**
   * GLANCE_BROWSER_SPARE: while a page slot is free, the next request's isolated context, proxy and blank page are
   * made ahead (lib/browser/spare.ts), at the memory of one idle renderer (docs/deployment.md, Browser lifecycle). On by default
   * in `multi` mode. In `single` mode (Lambda's default) a spare is a whole idle browser per instance, made on the
   * CPU the request's own capture is using: there it defaults on only with GLANCE_BROWSER_AT_INIT, whose launch it is.
   */
  readonly browserSpare: boolean;
  /** GLANCE_BROWSER_AT_INIT (default off): Chromium (and the spare) start with the process, in Lambda's init phase. */
  readonly browserAtInit: boolean;
  /**
   * GLANCE_WORKERS: worker threads for CPU work over page content and rule values (lib/work/): one per core on the
   * local service, so such requests use every core and never the event loop; one in Lambda, whose instance serves
   * one request at a time.
   */
  readonly workers: number;
  /** This function, when running in Lambda: stale cache entries are refreshed by invoking it asynchronously. */
  readonly lambda: { readonly functionName: string; readonly region: string } | undefined;
  /** Where cached answers live: a private S3 bucket when configured, else a local folder. */
  readonly cache: CacheSettings;
  /** The environment this configuration was read from: a worker thread that needs the configuration reads it again
   *  (Lighthouse's, lib/browser/lighthouse-job.ts), since a frozen Config with its classes does not cross threads. */
  readonly env: Readonly<Env>;
  /** API keys: none means the API is open; `env` lists them, `ssm` names a SecureString parameter holding them. */
  readonly apiKeys: { readonly kind: 'none' } | { readonly kind: 'env'; readonly keys: readonly string[] } | { readonly kind: 'ssm'; readonly parameter: string };
  /** GLANCE_RATE_LIMIT and GLANCE_RATE_LIMIT_WINDOW: the local service's optional per-client limit
   *  (lib/http/rate-limit.ts); undefined, the default, is none. Deployed, the edge limits (stacks/rate-limit.ts). */
  readonly rateLimit: RateLimitSettings | undefined;
  /** GLANCE_TRUST_PROXY_HOPS: how many proxies of the operator's stand in front of the local service, whose
   *  X-Forwarded-For entries the rate limit believes (lib/http/client-address.ts). 0, the default: none. */
  readonly trustProxyHops: number;
  /** GLANCE_ORIGIN_SECRET: deployed, what CloudFront's requests carry in `x-glance-origin`; a request without it
   *  came around CloudFront and is refused (lib/http/origin-guard.ts). Undefined: every request is answered. */
  readonly originSecret: string | undefined;
  /** The MCP endpoint (lib/mcp/): the browser origins it takes besides its own and loopback pages'
   *  (GLANCE_MCP_ORIGINS, `*` for any), and the `screenshot` tool's image bound (GLANCE_MCP_IMAGE_MAX_BYTES). */
  readonly mcp: McpSettings;
}

export interface McpSettings {
  readonly origins: readonly string[];
  readonly imageMaxBytes: number;
}

/** An image this large (base64, about 1.4 MB) passes the common clients' bounds on a tool result. */
export const DEFAULT_MCP_IMAGE_MAX_BYTES = 1024 * 1024;

export interface RateLimitSettings {
  /** Requests one client may make per window. */
  readonly limit: number;
  readonly windowMs: number;
}

export interface AdblockSettings {
  readonly lists: readonly string[];
  readonly engine: string | undefined;
}

export type ChromiumProcesses = 'multi' | 'single';

/**
 * A local folder: `retention`, ms after its last write a file is deleted (GLANCE_RETENTION); `maxBytes`, the size past
 * which the least recently used files are deleted (GLANCE_STORAGE_MAX_BYTES, GLANCE_CACHE_MAX_BYTES).
 */
export interface LocalFolder {
  readonly kind: 'local';
  readonly dir: string;
  readonly retention: number;
  readonly maxBytes: number;
}

export type CacheSettings =
  | LocalFolder
  | { readonly kind: 's3'; readonly bucket: string; readonly region: string; readonly endpoint: string | undefined; readonly forcePathStyle: boolean }
  | { readonly kind: 'off' };

export type StorageSettings =
  | LocalFolder
  | {
      readonly kind: 's3';
      readonly bucket: string;
      readonly region: string;
      /** An S3-protocol endpoint other than AWS's (tests use one on 127.0.0.1). */
      readonly endpoint: string | undefined;
      readonly forcePathStyle: boolean;
    };

export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The manual (docs/) as the repository shows it; the error payload's `more` is its error page. */
export const DOCS_BASE = 'https://github.com/glance-api/glance/blob/HEAD/docs/';

export const DOCS_URL = `${DOCS_BASE}errors.md`;

/** `embed.proxy`'s default limit: the same as a page's (GLANCE_MAX_BODY_BYTES), room for any og:image or logo. */
export const DEFAULT_EMBED_PROXY_MAX_BYTES = 10 * 1024 * 1024;

/**
 * `embed.proxy`'s limit in Lambda, and its default there. A Lambda function's response to API Gateway is at most
 * 6 MB (6 291 456 bytes) of JSON, and binary bodies travel in it base64-encoded, ×4/3: 4.5 MB of media would be
 * 6 MB alone. 4 MiB encodes to 5 592 408 bytes, leaving some 700 kB for the headers and the JSON around them.
 * A larger setting is refused at deploy (stacks/settings.ts) and at cold start, never discovered as a bare 502.
 */
export const LAMBDA_EMBED_PROXY_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The longest budget a request is admitted with (`timeout`'s maximum), plus a little to write its answer: a request
 * that arrived just before the signal still ends in its own answer. Whatever is still running when a shorter grace
 * ends is answered 503 EBUSY (functions/local.ts), never a reset.
 */
export const DEFAULT_SHUTDOWN_GRACE_MS = TIMEOUT.max + 2_000;

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfigError(`${name} must be "true" or "false", got "${raw}"`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function policy(setting: string, local: boolean, own: readonly string[]): AddressPolicy {
  try {
    return AddressPolicy.fromSetting(setting, { local, own });
  } catch (error) {
    throw new ConfigError(`GLANCE_ALLOW_HOSTS: ${(error as Error).message}`, { cause: error });
  }
}

const s3 = (env: Env, bucket: string) => ({
  kind: 's3' as const,
  bucket,
  region: env.GLANCE_S3_REGION || env.AWS_REGION || 'us-east-1',
  endpoint: env.GLANCE_S3_ENDPOINT || undefined,
  forcePathStyle: env.GLANCE_S3_FORCE_PATH_STYLE === 'true' || Boolean(env.GLANCE_S3_ENDPOINT),
});

/**
 * How long local assets and cache entries are kept after their last write (a put of bytes already stored counts,
 * so a screenshot lives at least as long as any answer naming it). At least a minute: shorter would delete files
 * still being written.
 */
function retention(env: Env): number {
  const raw = env.GLANCE_RETENTION;
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_MS;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < 60_000) throw new ConfigError(`GLANCE_RETENTION must be a duration of at least 1m (e.g. 31d), got "${raw}"`);
  return ms;
}

/** Stored screenshots, PDFs and reports on the local disk: 5 GiB, some 25 000 full-page captures. */
export const DEFAULT_STORAGE_MAX_BYTES = 5 * 1024 ** 3;
/** Cached answers on the local disk: 2 GiB, hundreds of thousands of metadata answers or a few hundred proxied files. */
export const DEFAULT_CACHE_MAX_BYTES = 2 * 1024 ** 3;

const folder = (env: Env, dir: string, kept: number, sizeName: string, size: number): LocalFolder => ({
  kind: 'local',
  dir,
  retention: kept,
  // At least a few of the largest answers (GLANCE_MAX_BODY_BYTES is 10 MiB by default).
  maxBytes: integer(env, sizeName, size, 64 * 1024 * 1024, Number.MAX_SAFE_INTEGER),
});

function storage(env: Env, kept: number): StorageSettings {
  const bucket = env.GLANCE_S3_BUCKET;
  return bucket ? s3(env, bucket) : folder(env, env.GLANCE_STORAGE_DIR || '.glance/assets', kept, 'GLANCE_STORAGE_MAX_BYTES', DEFAULT_STORAGE_MAX_BYTES);
}

function cache(env: Env, kept: number): CacheSettings {
  if (env.GLANCE_CACHE === 'off') return { kind: 'off' };
  const bucket = env.GLANCE_CACHE_BUCKET;
  return bucket ? s3(env, bucket) : folder(env, env.GLANCE_CACHE_DIR || '.glance/cache', kept, 'GLANCE_CACHE_MAX_BYTES', DEFAULT_CACHE_MAX_BYTES);
}

function apiKeys(env: Env): Config['apiKeys'] {
  if (env.GLANCE_API_KEYS_PARAMETER) return { kind: 'ssm', parameter: env.GLANCE_API_KEYS_PARAMETER };
  const keys = (env.GLANCE_API_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  return keys.length ? { kind: 'env', keys } : { kind: 'none' };
}

/**
 * The local service's own limit: one process counts only what it serves, so in Lambda (an instance per request at
 * a time) a count would mean nothing, and the setting is refused rather than ignored.
 */
function rateLimit(env: Env, inLambda: boolean): RateLimitSettings | undefined {
  if (env.GLANCE_RATE_LIMIT === undefined || env.GLANCE_RATE_LIMIT === '') return undefined;
  if (inLambda) throw new ConfigError('GLANCE_RATE_LIMIT is the local service\'s: deployed, use GLANCE_THROTTLE_RATE or GLANCE_WAF_RATE_LIMIT');
  const limit = integer(env, 'GLANCE_RATE_LIMIT', 0, 1, 1_000_000_000);
  const raw = env.GLANCE_RATE_LIMIT_WINDOW || '1m';
  const windowMs = parseDuration(raw);
  if (windowMs === undefined || windowMs < 1000 || windowMs > DEFAULT_RETENTION_MS) {
    throw new ConfigError(`GLANCE_RATE_LIMIT_WINDOW must be a duration from 1s to 31d (e.g. 1m, 1h, 1d), got "${raw}"`);
  }
  return Object.freeze({ limit, windowMs });
}

/** The service's own origin is always taken: a page it serves may call it. Origins are compared as browsers send them. */
function mcp(env: Env, publicUrl: string): McpSettings {
  const listed = (env.GLANCE_MCP_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  const origins = listed.map((origin) => {
    const url = origin === '*' ? undefined : URL.parse(origin);
    if (origin !== '*' && (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))) {
      throw new ConfigError(`GLANCE_MCP_ORIGINS must list http(s) origins (or *), got "${origin}"`);
    }
    return url ? url.origin : origin;
  });
  const own = URL.parse(publicUrl)?.origin;
  return Object.freeze({
    origins: Object.freeze([...origins, ...(own ? [own] : [])]),
    imageMaxBytes: integer(env, 'GLANCE_MCP_IMAGE_MAX_BYTES', DEFAULT_MCP_IMAGE_MAX_BYTES, 1024, 20 * 1024 * 1024),
  });
}

/** A JSON array of strings: flags hold commas and spaces (`--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE …`). */
function chromiumArgs(raw: string | undefined): readonly string[] {
  if (!raw) return [];
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(`GLANCE_CHROMIUM_ARGS must be a JSON array of strings: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
    throw new ConfigError('GLANCE_CHROMIUM_ARGS must be a JSON array of strings');
  }
  return Object.freeze(args);
}

/** Paths, each checked now: a missing list should stop the start, not every adblocked capture. */
function existing(name: string, paths: readonly string[]): readonly string[] {
  for (const path of paths) {
    if (!existsSync(path)) throw new ConfigError(`${name}: no file at "${path}"`);
  }
  return Object.freeze(paths);
}

function adblock(env: Env): AdblockSettings {
  const lists = (env.GLANCE_ADBLOCK_LISTS ?? '').split(',').map((path) => path.trim()).filter(Boolean);
  const [engine] = existing('GLANCE_ADBLOCK_ENGINE', env.GLANCE_ADBLOCK_ENGINE ? [env.GLANCE_ADBLOCK_ENGINE] : []);
  return Object.freeze({ lists: existing('GLANCE_ADBLOCK_LISTS', lists), engine });
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * Lambda defaults to `single`, the mode @sparticuz/chromium's maintainers run there (multi-process has only run in
 * a simulated Lambda here); elsewhere `multi`, which isolates each page in its own renderer.
 */
function chromiumProcesses(raw: string | undefined, inLambda: boolean): ChromiumProcesses {
  if (raw === undefined || raw === '') return inLambda ? 'single' : 'multi';
  if (raw === 'multi' || raw === 'single') return raw;
  throw new ConfigError(`GLANCE_CHROMIUM_MODE must be "multi" or "single", got "${raw}"`);
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const publicUrl = trimSlash(env.GLANCE_PUBLIC_URL || `http://localhost:${port}`);
  const kept = retention(env);
  const processes = chromiumProcesses(env.GLANCE_CHROMIUM_MODE, Boolean(env.AWS_LAMBDA_FUNCTION_NAME));
  const atInit = boolean(env, 'GLANCE_BROWSER_AT_INIT', false);
  return Object.freeze({
    port,
    host: env.HOST || '127.0.0.1',
    shutdownGraceMs: integer(env, 'GLANCE_SHUTDOWN_GRACE_MS', DEFAULT_SHUTDOWN_GRACE_MS, 0, 10 * 60_000),
    publicUrl,
    // AWS_LAMBDA_FUNCTION_NAME is set by the Lambda runtime itself: without it, this is the one-machine service.
    // Its own public address is never a target (lib/guard/loop.ts). CDN_URL is not listed: the asset CDN only
    // serves stored files and never calls Glance, so a page showing a Glance screenshot must stay reachable.
    policy: policy(env.GLANCE_ALLOW_HOSTS ?? '', !env.AWS_LAMBDA_FUNCTION_NAME, [publicUrl]),
    maxBodyBytes: integer(env, 'GLANCE_MAX_BODY_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    embedProxyMaxBytes: env.AWS_LAMBDA_FUNCTION_NAME
      ? integer(env, 'GLANCE_EMBED_PROXY_MAX_BYTES', LAMBDA_EMBED_PROXY_MAX_BYTES, 1024, LAMBDA_EMBED_PROXY_MAX_BYTES)
      : integer(env, 'GLANCE_EMBED_PROXY_MAX_BYTES', DEFAULT_EMBED_PROXY_MAX_BYTES, 1024, 1024 * 1024 * 1024),
    userAgent: env.GLANCE_USER_AGENT || DEFAULT_USER_AGENT,
    docsUrl: env.GLANCE_DOCS_URL || DOCS_URL,
    storage: storage(env, kept),
    retention: kept,
    cdnUrl: trimSlash(env.CDN_URL || publicUrl),
    // AWS_LAMBDA_FUNCTION_NAME is set by the Lambda runtime itself.
    chromium: {
      mode: env.AWS_LAMBDA_FUNCTION_NAME ? ('lambda' as const) : ('local' as const),
      path: env.CHROMIUM_PATH || undefined,
      processes,
    },
    chromiumArgs: chromiumArgs(env.GLANCE_CHROMIUM_ARGS),
    browserMaxPages: integer(env, 'GLANCE_BROWSER_MAX_PAGES', 500, 1, 1_000_000),
    browserSpare: boolean(env, 'GLANCE_BROWSER_SPARE', processes === 'multi' || atInit),
    browserAtInit: atInit,
    adblock: adblock(env),
    workers: integer(env, 'GLANCE_WORKERS', env.AWS_LAMBDA_FUNCTION_NAME ? 1 : availableParallelism(), 1, 64),
    lambda: env.AWS_LAMBDA_FUNCTION_NAME
      ? { functionName: env.AWS_LAMBDA_FUNCTION_NAME, region: env.AWS_REGION || 'us-east-1' }
      : undefined,
    cache: cache(env, kept),
    env: Object.freeze({ ...env }),
    apiKeys: apiKeys(env),
    rateLimit: rateLimit(env, Boolean(env.AWS_LAMBDA_FUNCTION_NAME)),
    trustProxyHops: integer(env, 'GLANCE_TRUST_PROXY_HOPS', 0, 0, 16),
    originSecret: env.GLANCE_ORIGIN_SECRET || undefined,
    mcp: mcp(env, publicUrl),
  });
}
