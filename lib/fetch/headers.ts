/** Request headers sent to targets and response headers handed back to callers. */
import { FINAL_HOP, HOP_HEADER, type Hop } from '../guard/loop.ts';
import { CLIENT_MANAGED, HOP_BY_HOP } from './hop-by-hop.ts';

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

/**
 * The caller's headers a browser would send to every origin: preferences, not secrets. Every other header the
 * caller gives (`authorization`, `cookie`, any `x-api-header-*`) is for the target's origin only (issue 11 item 5).
 */
const EVERYWHERE: ReadonlySet<string> = new Set(['user-agent', 'accept-language']);

/** The caller's headers split into those sent to every origin and those kept for the target's origin. */
export function splitCallerHeaders(caller: Readonly<Record<string, string>>): { everywhere: Record<string, string>; targetOnly: Record<string, string> } {
  const everywhere: Record<string, string> = {};
  const targetOnly: Record<string, string> = {};
  for (const [name, value] of Object.entries(caller)) {
    if (EVERYWHERE.has(name.toLowerCase())) everywhere[name] = value;
    else targetOnly[name] = value;
  }
  return { everywhere, targetOnly };
}

/**
 * The caller's headers are checked once, where they enter (lib/query/target-headers.ts: RFC 9110 names and values,
 * connection fields refused). Node's http client refuses an invalid name or a line break again before any byte is
 * written, so nothing here can split a request.
 */
export function requestHeaders(userAgent: string, caller: Record<string, string> = {}, hop: Hop = FINAL_HOP): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: ACCEPT,
    'accept-language': 'en-US,en;q=0.9',
  };
  for (const [rawName, value] of Object.entries(caller)) {
    const name = rawName.toLowerCase();
    if (!DROPPED.has(name)) headers[name] = value;
  }
  headers['accept-encoding'] = ACCEPT_ENCODING;
  // Last, so no caller header can remove or change it (lib/guard/loop.ts).
  headers[HOP_HEADER] = hop;
  return headers;
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
