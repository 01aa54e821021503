/**
 * `GET /health`: for load balancers, uptime checks and the post-deploy smoke test. A path of its own, so it never
 * collides with `GET /?url=…`; it does no work (no fetch, no browser, no cache) and is never cached.
 */
import { withStandardHeaders } from './headers.ts';
import type { ApiResponse } from './types.ts';

export const HEALTH_PATH = '/health';

/** 200 while serving; 503 once shutdown has begun, so a balancer stops sending requests. */
export function healthResponse(stopping: boolean): ApiResponse {
  return withStandardHeaders({
    statusCode: stopping ? 503 : 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify({ status: stopping ? 'stopping' : 'ok' }),
  });
}
