/** Request headers sent to targets and response headers handed back to callers. */
import { invalidParam } from '../errors.ts';
import { CLIENT_MANAGED, HOP_BY_HOP } from '../http/hop-by-hop.ts';

/** What Chrome sends for a navigation, so servers answer Glance the page a browser would get. */
const ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

/** The body decoders in body.ts handle exactly these. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * Never forwarded from callers: hop-by-hop fields and fields that describe this connection or message rather than
 * the request; `accept-encoding` stays ours because we can only decode what we ask for.
 */
const DROPPED: ReadonlySet<string> = new Set([...CLIENT_MANAGED, 'proxy-authorization', 'accept-encoding']);

/** Dropped when a redirect leaves the origin, as browsers and undici do, so credentials go nowhere unasked. */
const CREDENTIALS = ['authorization', 'cookie'];

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value must not smuggle line breaks or NUL into the request (response splitting). */
const UNSAFE_VALUE = /[\r\n\0]/;

export function requestHeaders(userAgent: string, caller: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: ACCEPT,
    'accept-language': 'en-US,en;q=0.9',
  };
  for (const [rawName, value] of Object.entries(caller)) {
    const name = rawName.toLowerCase();
    if (!TOKEN.test(name)) throw invalidParam('headers', `"${rawName}" is not a valid header name`);
    if (UNSAFE_VALUE.test(value)) throw invalidParam('headers', `the value of "${rawName}" contains a line break`);
    if (!DROPPED.has(name)) headers[name] = value;
  }
  headers['accept-encoding'] = ACCEPT_ENCODING;
  return headers;
}

export function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const kept = { ...headers };
  for (const name of CREDENTIALS) delete kept[name];
  return kept;
}

/**
 * Not the target's to report: set-cookie is the target's business with Glance, not the caller's, and hop-by-hop
 * fields (RFC 9110 §7.6.1) describe the connection to Glance, not the page.
 */
const HIDDEN: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'set-cookie']);

/** Lower-case names, repeated fields joined with ', ', the HIDDEN fields left out. */
export function responseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const key = name.toLowerCase();
    if (value === undefined || HIDDEN.has(key)) continue;
    headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
