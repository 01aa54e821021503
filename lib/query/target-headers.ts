/**
 * Extra request headers for the target: `headers.<name>=<value>` parameters, and `x-api-header-<name>` request
 * headers with the prefix removed (so secrets such as cookies can stay out of the URL and the cache key).
 */
import { GlanceError, invalidParam } from '../errors.ts';
import { FORWARDED_PREFIX, forwardedHeaders } from './forwarded-headers.ts';
import { CLIENT_MANAGED } from '../fetch/hop-by-hop.ts';
import { child, join, scalar } from './read.ts';
import type { QueryNode } from './tree.ts';

// RFC 9110 §5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
// RFC 9110 §5.5: visible ASCII, space, tab and obs-text; never CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Why a header cannot be sent, or undefined when it can. */
function problem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return 'a header name made of letters, digits and !#$%&\'*+-.^_`|~';
  if (CLIENT_MANAGED.has(name)) return `\`${name}\` is set by the connection and cannot be given`;
  if (!FIELD_VALUE.test(value)) return 'a header value without line breaks, NUL or characters beyond Latin-1';
  return undefined;
}

export function readHeaders(
  root: QueryNode,
  requestHeaders: Record<string, string | undefined> = {},
): Readonly<Record<string, string>> {
  // A Map, then Object.fromEntries: a request header `x-api-header-__proto__` becomes an own entry, nothing more.
  const headers = new Map<string, string>();
  const add = (name: string, value: string, fail: (reason: string) => GlanceError) => {
    const reason = problem(name, value);
    if (reason) throw fail(reason);
    const previous = headers.get(name);
    if (previous !== undefined && previous !== value) {
      throw fail(`it disagrees with another \`${name}\` header given; give it once`);
    }
    headers.set(name, value);
  };

  const found = child(root, 'headers');
  if (found) {
    if (found.node.value !== undefined) throw invalidParam(found.name, 'sub-keys such as headers.accept-language=en');
    for (const [key, node] of found.node.children) {
      const name = join(found.name, key);
      const value = scalar({ node, name }).trim();
      add(key.toLowerCase(), value, (reason) => invalidParam(name, reason));
    }
  }

  for (const [header, rawValue] of forwardedHeaders(requestHeaders)) {
    const name = header.slice(FORWARDED_PREFIX.length);
    const fail = (reason: string) =>
      new GlanceError('EINVALQUERY', `The \`${header}\` request header is invalid: ${reason}.`, {
        data: { [header]: reason },
      });
    add(name, rawValue.trim(), fail);
  }
  return Object.fromEntries(headers);
}
