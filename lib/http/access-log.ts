/**
 * One structured record per answered request, for the operator's logs: who asked (request id), what came of it
 * (status, error code, cache status, fetch mode) and where the time went, and enough to tell an abusive caller: its
 * address and a short hash of the API key it sent. No caller secrets: the target is reduced to its origin (a query
 * may carry tokens), and no header, key or cookie is included (a key only as that hash).
 */
import { createHash } from 'node:crypto';
import type { Timings } from '../time/timings.ts';
import type { ApiRequest, ApiResponse } from './types.ts';
import { joined } from '../text/pieces.ts';

export interface AccessRecord {
  readonly requestId: string;
  readonly method: string;
  /** The caller's address as the transport knows it (deployed: the viewer's, as CloudFront saw it). */
  readonly client: string | undefined;
  /** The first 12 hex digits of the SHA-256 of the `x-api-key` sent, valid or not: which key a burst came with,
   *  never the key (`printf %s "$KEY" | sha256sum | cut -c1-12` names a key's). */
  readonly keyId: string | undefined;
  /** `/mcp` for the MCP endpoint; absent for the API's own address. */
  readonly path?: string;
  /** `caller`, `refresh` for a background regeneration of a stale entry, `mcp` for an MCP tool's query. */
  readonly origin: string;
  readonly status: number;
  /** The error code of a failed answer (the payload's `code`). */
  readonly code: string | undefined;
  readonly cache: string | undefined;
  readonly fetchMode: string | undefined;
  /** Scheme and host of the target, never its path or query. */
  readonly target: string | undefined;
  readonly totalMs: number;
  /** The request's spans (ms), as in `server-timing`. */
  readonly timings: Readonly<Record<string, number>>;
}

function codeOf(response: ApiResponse): string | undefined {
  if (response.statusCode < 400 || !response.headers['content-type']?.startsWith('application/json')) return undefined;
  try {
    const { code } = JSON.parse(joined(response.body)) as { code?: unknown };
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** http(s) targets only: any other scheme has no origin worth logging (`file:` URLs give "null"). */
function originOf(target: string | undefined): string | undefined {
  const url = target === undefined ? null : URL.parse(target);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined;
}

const keyIdOf = (key: string | undefined): string | undefined =>
  key ? createHash('sha256').update(key).digest('hex').slice(0, 12) : undefined;

export function accessRecord(
  request: Pick<ApiRequest, 'requestId' | 'method' | 'clientAddress' | 'headers' | 'path'>,
  origin: string,
  response: ApiResponse,
  target: string | undefined,
  timings: Timings,
  totalMs: number,
): AccessRecord {
  return {
    requestId: request.requestId,
    method: request.method,
    client: request.clientAddress,
    keyId: keyIdOf(request.headers['x-api-key']),
    ...(request.path ? { path: request.path } : {}),
    origin,
    status: response.statusCode,
    code: codeOf(response),
    cache: response.headers['x-cache-status'],
    fetchMode: response.headers['x-fetch-mode'],
    target: originOf(target),
    totalMs,
    timings: timings.spans(),
  };
}
