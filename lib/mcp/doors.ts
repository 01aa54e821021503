/**
 * What `/mcp` checks before the SDK reads a byte (the MCP specification, Transports → Streamable HTTP): the method
 * (POST; no server-sent stream is offered, so GET and DELETE answer 405), the `Origin` a browser sends (refused with
 * 403 unless it is this service's own, a loopback page's or one GLANCE_MCP_ORIGINS lists: a page elsewhere, its name
 * rebound to this address, must not drive the tools), the body's size, and the API key, which MCP clients send as
 * `Authorization: Bearer <key>` as often as `x-api-key`. Light on purpose: the SDK loads with the first POST only.
 */
import { GlanceError } from '../errors.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';

export const MCP_PATH = '/mcp';

/** JSON-RPC messages are small: a tool call's arguments, a few kilobytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

type Headers = ApiRequest['headers'];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a browser page at `origin` may call the endpoint (no `Origin`: not a browser's request). */
export function originAllowed(origin: string | undefined, own: readonly string[]): boolean {
  if (origin === undefined) return true;
  const url = URL.parse(origin);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  return own.includes('*') || own.includes(url.origin) || LOOPBACK.has(url.hostname);
}

/** The key as the API reads it: `x-api-key`, else the bearer token of `Authorization`. */
export function withBearerKey(headers: Headers): Headers {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  return headers['x-api-key'] === undefined && bearer !== undefined ? { ...headers, 'x-api-key': bearer } : headers;
}

/** Refuses what the endpoint does not take, before the key check: with the code and status of the API's catalogue. */
export function checkDoors(request: ApiRequest, origins: readonly string[]): void {
  if (!originAllowed(request.headers.origin, origins)) {
    throw new GlanceError('EFORBIDDENORIGIN', `The Origin ${request.headers.origin} may not use this MCP endpoint: list it in GLANCE_MCP_ORIGINS.`);
  }
  if (request.method !== 'POST') {
    throw new GlanceError('EMETHOD', `The method ${request.method} is not allowed at ${MCP_PATH}: use POST (no server-sent event stream is offered).`);
  }
  if (Buffer.byteLength(request.body ?? '') > MAX_BODY_BYTES) {
    throw new GlanceError('ETOOLARGE', `The request body is past ${MAX_BODY_BYTES} bytes.`);
  }
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, DELETE, OPTIONS',
  'access-control-allow-headers': 'authorization, x-api-key, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, x-request-id, x-rate-limit-limit, x-rate-limit-remaining, x-rate-limit-reset, retry-after',
  'access-control-max-age': '86400',
} as const;

/** The endpoint's own CORS headers, over the API's (lib/http/cors.ts), which name GET only and no MCP header. */
export const withMcpCors = (response: ApiResponse): ApiResponse => {
  response.headers = { ...response.headers, ...CORS, ...(response.statusCode === 405 ? { allow: 'POST, OPTIONS' } : {}) };
  return response;
};

export const mcpPreflight = (): ApiResponse => ({ statusCode: 204, headers: { ...CORS }, body: '' });
