/**
 * A request's query → its options and cache key. Both are pure in the raw query string and the `x-api-header-*`
 * request headers, so a bounded memo lets a hot query (a cache hit served over and over) skip parsing and hashing
 * (~50 µs of a ~250 µs hit on the local service; bench/cache).
 */
import { cacheKey } from '../cache/index.ts';
import { parseQuery } from '../query/index.ts';
import { DEFAULTS, type Options } from '../query/options.ts';
import { resolveDevice } from '../browser/devices.ts';
import { forwardedHeaders } from '../query/forwarded-headers.ts';

export interface ParsedRequest {
  readonly options: Options;
  readonly key: string;
}

const MEMO_ENTRIES = 1000;

export function createRequestParser(): (raw: string, headers: Readonly<Record<string, string | undefined>>) => Promise<ParsedRequest> {
  const memo = new Map<string, ParsedRequest>();
  return async (raw, headers) => {
    const forwarded = forwardedHeaders(headers).sort(([a], [b]) => (a < b ? -1 : 1));
    const id = forwarded.length ? `${raw}\n${JSON.stringify(forwarded)}` : raw;
    const known = memo.get(id);
    if (known) return known;
    const options = parseQuery(raw, headers);
    // Checked here, once, whatever the request asks for: a device name is valid or not regardless of screenshots.
    if (options.device !== DEFAULTS.device) await resolveDevice(options.device, options.viewport);
    const parsed = { options, key: cacheKey(options) };
    if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(id, parsed);
    return parsed;
  };
}
