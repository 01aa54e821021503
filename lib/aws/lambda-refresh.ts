/**
 * Refresh in Lambda: the function invokes itself asynchronously (InvocationType `Event`) with the stale request,
 * and that invocation regenerates the key with `force` semantics. The SDK module is imported on the first refresh
 * only, so a cold start that never serves a stale answer never loads it.
 */
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { Refresh, RefreshRequest } from '../cache/refresh.ts';
import { forwardedHeaders } from '../query/forwarded-headers.ts';
import { REFRESH_INVOKE_TIMEOUTS } from '../time/limits.ts';

/** The payload of a self-invocation; API Gateway events never have this shape. */
export interface RefreshEvent {
  readonly glanceRefresh: { readonly v: 1; readonly rawQueryString: string; readonly headers: Record<string, string> };
}

export function isRefreshEvent(event: unknown): event is RefreshEvent {
  const body = (event as Partial<RefreshEvent> | null | undefined)?.glanceRefresh;
  return (
    typeof body === 'object' &&
    body !== null &&
    body.v === 1 &&
    typeof body.rawQueryString === 'string' &&
    typeof body.headers === 'object' &&
    body.headers !== null &&
    Object.values(body.headers).every((value) => typeof value === 'string')
  );
}

/** The request as a refresh needs it: only the forwarded headers change the answer (lib/query/target-headers.ts). */
function refreshEvent({ rawQueryString, headers }: RefreshRequest): RefreshEvent {
  return { glanceRefresh: { v: 1, rawQueryString, headers: Object.fromEntries(forwardedHeaders(headers)) } };
}

export interface LambdaRefresherOptions {
  /** An endpoint other than AWS's (tests use one on 127.0.0.1). */
  endpoint?: string;
  /** A key refreshed less than this long ago is not refreshed again from this instance (default: 30 s, just over
   *  the longest request, so one refresh has finished before another is asked for). */
  windowMs?: number;
  now?: () => number;
  onError?: (error: unknown, key: string) => void;
}

export function createLambdaRefresher(functionName: string, region: string, options: LambdaRefresherOptions = {}): Refresh {
  const { endpoint, windowMs = 30_000, now = Date.now, onError } = options;
  const asked = new Map<string, number>();
  let client: Promise<{ client: LambdaClient; InvokeCommand: typeof import('@aws-sdk/client-lambda').InvokeCommand }>;

  const load = () =>
    (client ??= import('@aws-sdk/client-lambda').then(({ LambdaClient, InvokeCommand }) => ({
      client: new LambdaClient({
        region,
        endpoint,
        // An asynchronous invoke is only queued by Lambda; a stale answer must not wait long on it.
        requestHandler: { ...REFRESH_INVOKE_TIMEOUTS, throwOnRequestTimeout: true },
      }),
      InvokeCommand,
    })));

  return async ({ key, request }) => {
    const time = now();
    for (const [known, at] of asked) if (time - at >= windowMs) asked.delete(known);
    if (asked.has(key)) return;
    asked.set(key, time);
    try {
      const { client, InvokeCommand } = await load();
      await client.send(
        new InvokeCommand({
          FunctionName: functionName,
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify(refreshEvent(request))),
        }),
      );
    } catch (error) {
      // Let the next stale request try again rather than waiting out the window.
      asked.delete(key);
      onError?.(error, key);
    }
  };
}
