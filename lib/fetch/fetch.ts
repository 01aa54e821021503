/**
 * The one way out of the process over HTTP. Every hop is vetted (parseTarget for the URL, the agent's lookup for
 * the address connected to), redirects are followed here so each hop can be vetted, and one budget bounds the
 * whole exchange.
 */
import type { Budget } from '../time/budget.ts';
import { GlanceError } from '../errors.ts';
import { decodedBody, drain, release, tooLarge } from './body.ts';
import { agentFor } from './agents.ts';
import type { Resolver } from '../guard/lookup.ts';
import type { Outbound } from '../guard/outbound.ts';
import { fetchFailure, timedOut, type Attempt } from './errors.ts';
import { exchange, type RawResponse } from './exchange.ts';
import { requestHeaders, responseHeaders } from './headers.ts';
import { parseTarget, type AddressPolicy, type VettedUrl } from '../guard/policy.ts';
import type { Hop } from '../guard/loop.ts';

export type { Resolver } from '../guard/lookup.ts';

/** One hop of a redirect chain, as the fetcher and the browser both report it. */
export interface Redirect {
  readonly statusCode: number;
  /** The address redirected to. */
  readonly url: string;
}

export interface FetchOptions {
  policy: AddressPolicy;
  /** The sub-budget for this fetch; running out is ETIMEOUT. */
  budget: Budget;
  userAgent: string;
  /** Decompressed body limit; more is ETOOLARGE. */
  maxBytes: number;
  /** Headers for every hop, overriding the defaults (hop-by-hop ones are dropped). */
  headers?: Record<string, string>;
  /**
   * The caller's headers for the target's origin only (credentials, tokens): sent while the redirects stay on the
   * first URL's origin and dropped for good once one leaves it, as browsers drop `authorization`.
   */
  targetOnly?: Record<string, string>;
  method?: 'GET' | 'HEAD';
  /** Default 10; more is EMAXREDIRECTS. */
  maxRedirects?: number;
  /** Default: the system resolver. Tests inject one. */
  resolver?: Resolver;
  /** The answer's allowance of outbound requests; every exchange, redirect hops included, takes one. */
  outbound?: Outbound | undefined;
  /** The loop mark every hop carries (lib/guard/loop.ts); by default FINAL_HOP, which no Glance answers. */
  hop?: Hop | undefined;
}

export interface FetchResponse {
  /** The final URL, after redirects. */
  url: string;
  statusCode: number;
  /** Lower-case names, repeated fields joined with ', ', set-cookie dropped. */
  headers: Record<string, string>;
  /** Cookie name → value from the final response's set-cookie fields: never answered, only matched (insights). */
  cookies: Record<string, string>;
  redirects: Redirect[];
  /** Decompressed, limited to maxBytes, ends at the budget. */
  body: AsyncIterable<Buffer>;
  /** Stops reading and releases the connection. */
  cancel(): void;
}

export interface FetchedPage extends Omit<FetchResponse, 'body' | 'cancel'> {
  body: Buffer;
  timeMs: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses and methods whose responses carry no body, whatever their headers say (RFC 9110 §6.4.1). */
const BODILESS_STATUSES = new Set([204, 205, 304]);

/** The first of a field's values, as for fields that may appear only once (Location, Content-Length…). */
const single = (values: string[] | undefined): string | undefined => values?.[0];

/** The next hop of a redirect, vetted like a caller's URL; its refusal says it came from a redirect. */
function redirectTarget(location: string, from: URL, policy: AddressPolicy, hop: Hop | undefined): VettedUrl {
  let resolved: string;
  try {
    resolved = new URL(location, from).href;
  } catch {
    resolved = location;
  }
  return parseTarget(resolved, policy, `The target at ${from.href} redirected to`, hop);
}

function tooManyRedirects(redirects: Redirect[], next: URL, limit: number): GlanceError {
  const loop = redirects.some((hop) => hop.url === next.href) ? ' (the redirects go round in a loop)' : '';
  return new GlanceError(
    'EMAXREDIRECTS',
    `The target redirected more than ${limit} times${loop}; the last hop was to ${next.href}.`,
  );
}

/** Opens a guarded request; resolves once the final (non-redirect) response's headers are in. */
export async function openResponse(target: string | VettedUrl, options: FetchOptions): Promise<FetchResponse> {
  const { policy, maxBytes, hop } = options;
  const method = options.method ?? 'GET';
  const maxRedirects = options.maxRedirects ?? 10;
  const agents = agentFor(policy, options.resolver);
  const signal = options.budget.signal();
  const started = performance.now();
  let url = typeof target === 'string' ? parseTarget(target, policy, undefined, hop) : target;
  let headers = requestHeaders(options.userAgent, { ...options.headers, ...options.targetOnly }, hop);
  const redirects: Redirect[] = [];

  for (;;) {
    const attempt: Attempt = { url, signal, started };
    if (signal.aborted) throw timedOut(attempt);
    options.outbound?.take(url);
    let response: RawResponse;
    try {
      response = await exchange(url, { agents, method, headers, signal });
    } catch (error) {
      throw fetchFailure(error, attempt);
    }

    const location = single(response.headers.location);
    if (REDIRECT_STATUSES.has(response.statusCode) && location) {
      await drain(response.body);
      const next = redirectTarget(location, url, policy, hop);
      if (redirects.length >= maxRedirects) throw tooManyRedirects(redirects, next, maxRedirects);
      // Only GET and HEAD are sent, and the Fetch standard keeps both through every redirect status.
      if (next.origin !== url.origin) headers = requestHeaders(options.userAgent, options.headers, hop);
      redirects.push({ statusCode: response.statusCode, url: next.href });
      url = next;
      continue;
    }

    const length = Number(single(response.headers['content-length']));
    if (method !== 'HEAD' && Number.isFinite(length) && length > maxBytes) {
      release(response.body);
      throw tooLarge(url, maxBytes);
    }
    const bodiless = method === 'HEAD' || BODILESS_STATUSES.has(response.statusCode);
    let cancelled = false;
    let body: AsyncIterable<Buffer>;
    try {
      body = decodedBody(response.body, {
        contentEncoding: bodiless ? undefined : single(response.headers['content-encoding']),
        maxBytes,
        attempt,
        cancelled: () => cancelled,
      });
    } catch (error) {
      release(response.body);
      throw error;
    }
    return {
      url: url.href,
      statusCode: response.statusCode,
      headers: responseHeaders(response.headers),
      cookies: cookiesOf(response.headers['set-cookie']),
      redirects,
      body,
      cancel: () => {
        cancelled = true;
        release(response.body);
      },
    };
  }
}

/** openResponse, then the whole body (within maxBytes and the budget). */
export async function fetchPage(target: string | VettedUrl, options: FetchOptions): Promise<FetchedPage> {
  const started = performance.now();
  const { body, cancel, ...response } = await openResponse(target, options);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) chunks.push(chunk);
  } finally {
    cancel();
  }
  return { ...response, body: Buffer.concat(chunks), timeMs: Math.round(performance.now() - started) };
}

/** `name=value` of each set-cookie field (RFC 6265 §5.2), attributes left out. */
function cookiesOf(fields: string[] | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const field of fields ?? []) {
    const pair = field.split(';', 1)[0] ?? '';
    const eq = pair.indexOf('=');
    const name = (eq === -1 ? '' : pair.slice(0, eq)).trim();
    if (name !== '' && !Object.hasOwn(cookies, name)) cookies[name] = pair.slice(eq + 1).trim();
  }
  return cookies;
}
