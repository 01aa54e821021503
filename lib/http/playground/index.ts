/**
 * The playground: `GET /` without a query, from a browser that asks for HTML before JSON, answers a page to try
 * the API on (lib/http/accept.ts decides). Anything else at that address — curl, fetch(), the Microlink clients,
 * `Accept: application/json`, no `Accept` — keeps the API's answer (`EINVALURL`, or `EAUTH` on a keyed deployment).
 *
 * The page is static and holds nothing, so it is served before the key check (a browser cannot send `x-api-key`
 * on a navigation); the requests it makes carry the key the user types. Its one script and one stylesheet are
 * inline and allowed by their hashes, and nothing else may run, load or connect but to this service and to
 * images: the answer it shows is metadata strangers wrote.
 */
import { createHash } from 'node:crypto';
import { prefersHtml } from '../accept.ts';
import type { ApiRequest, ApiResponse } from '../types.ts';
import { pageHtml } from './page.ts';
import { SCRIPT } from './script.ts';
import { STYLE } from './style.ts';

export interface PlaygroundOptions {
  /** The deployment checks API keys: the page asks for one. */
  readonly keyed: boolean;
  /**
   * Served over plain http (the local service): images may be http too. Deployed (https behind CloudFront), http
   * images are upgraded instead, as a secure page must not load them.
   */
  readonly plainHttp: boolean;
  /** Where the MCP endpoint answers, which the page points agents to. */
  readonly mcpPath: string;
}

export interface Playground {
  /** A browser's navigation to the bare address (GET or HEAD, no query, HTML preferred). */
  wanted(request: Pick<ApiRequest, 'method' | 'rawQueryString' | 'headers'>): boolean;
  /** A fresh answer each time: the caller adds headers to it. */
  response(): ApiResponse;
  /** The page's Content-Security-Policy, in place of the API's own (lib/http/security-headers.ts). */
  readonly policy: string;
}

const hash = (source: string) => `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;

export function contentSecurityPolicy({ plainHttp }: Pick<PlaygroundOptions, 'plainHttp'>): string {
  return [
    "default-src 'none'",
    `script-src ${hash(SCRIPT)}`,
    `style-src ${hash(STYLE)}`,
    // Previews and logos are anywhere on the web; screenshots are on the CDN, or on this service locally.
    `img-src 'self' data: https:${plainHttp ? ' http:' : ''}`,
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // innerHTML and its kin throw: answer data can only reach the page as text.
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
    ...(plainHttp ? [] : ['upgrade-insecure-requests']),
  ].join('; ');
}

export function createPlayground(options: PlaygroundOptions): Playground {
  const body = pageHtml(options);
  return {
    wanted: ({ method, rawQueryString, headers }) =>
      (method === 'GET' || method === 'HEAD') && rawQueryString === '' && prefersHtml(headers.accept),
    response: () => ({
      statusCode: 200,
      // Not kept by the edge: its cache key has no Accept, and the same address answers JSON to programs.
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      body,
    }),
    policy: contentSecurityPolicy(options),
  };
}
