/**
 * The cache key: a hash of what the answer depends on, read from the parsed Options rather than the raw query, so
 * everything the parser folds (parameter order, camelCase/snake_case, legacy flat keys, `1d` vs `86400000`,
 * defaults) folds here too.
 */
import { createHash } from 'node:crypto';
import type { Options } from '../query/options.ts';

/**
 * Options that say only how to cache, never what to answer: a request differing only in these shares the answer.
 * `ttl` and `staleTtl` set how long an answer is kept and served, `force` whether the cache is read; the body is
 * the same whatever they are. Every other option is in the key, so a new option splits keys until it is listed
 * here on purpose (tests/cache/key.test.ts checks each option either way).
 *
 * `timeout` is not here: a short budget can produce a degraded answer (a ping that ran out of time leaves
 * `image: null`, a capture under `waitUntil=auto` is taken earlier), and that answer must not be served to a
 * caller who gave the page 28 s. Requests keeping the default timeout, nearly all of them, still share.
 */
export const CACHE_ONLY = new Set<keyof Options>(['ttl', 'staleTtl', 'force']);

/** Bump to orphan every stored entry when what an answer contains changes shape. */
const KEY_VERSION = 'glance-cache-1';

/** JSON with object keys sorted at every depth; undefined members are dropped, as JSON.stringify does. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, item]) => `${JSON.stringify(name)}:${canonical(item)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** WHATWG serialisation: `HTTPS://Example.COM` and `https://example.com/` fetch the same page. */
function normalUrl(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}

export function cacheKey(options: Options): string {
  const relevant: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (!CACHE_ONLY.has(name as keyof Options)) relevant[name] = value;
  }
  relevant.url = normalUrl(options.url);
  // Device names are matched without case (lib/browser/devices.ts).
  relevant.device = options.device.trim().toLowerCase();
  // `headers` stays in: a cookie or an authorization header changes the page, and hashing keeps the secret out
  // of the key itself.
  return createHash('sha256').update(KEY_VERSION).update('\n').update(canonical(relevant)).digest('hex');
}

/**
 * The key of the same request answered as a nested one (lib/guard/loop.ts): its answer can lack what a caller's
 * would have (a Glance address among its media is refused), so the two never share an entry.
 */
export const nestedKey = (key: string): string => createHash('sha256').update(KEY_VERSION).update('\nnested\n').update(key).digest('hex');
