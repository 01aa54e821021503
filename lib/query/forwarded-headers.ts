/**
 * `x-api-header-<name>` request headers: sent on to the target as `<name>`, so secrets such as cookies can stay out
 * of the URL and the cache key. They shape the answer, so they also shape how it may be cached and refreshed.
 */
export const FORWARDED_PREFIX = 'x-api-header-';

export const isForwardedHeader = (name: string): boolean => name.toLowerCase().startsWith(FORWARDED_PREFIX);

/** The request's forwarded headers, in the order given: lower-case names, prefix kept; headers without a value left out. */
export function forwardedHeaders(headers: Readonly<Record<string, string | undefined>>): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && isForwardedHeader(name)) found.push([name.toLowerCase(), value]);
  }
  return found;
}
