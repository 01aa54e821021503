/**
 * One structured record per answered request, for the operator's logs: who asked (request id), what came of it
 * (status, error code, cache status, fetch mode) and where the time went. No caller secrets: the target is
 * reduced to its origin (a query may carry tokens), and no header, key or cookie is included.
 */
import type { Timings } from '../time/timings.ts';
import type { ApiResponse } from './types.ts';
import { joined } from '../text/pieces.ts';

export interface AccessRecord {
  readonly requestId: string;
  readonly method: string;
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

export function accessRecord(
  request: { readonly requestId: string; readonly method: string; readonly path?: string },
  origin: string,
  response: ApiResponse,
  target: string | undefined,
  timings: Timings,
  totalMs: number,
): AccessRecord {
  return {
    requestId: request.requestId,
    method: request.method,
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
