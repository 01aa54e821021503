/**
 * Background refresh of stale entries. ResultCache decides *that* a key needs refreshing; a Refresh decides
 * *where* it runs: in this process on one machine (here), or in another Lambda invocation (lambda-refresh.ts),
 * because a Lambda is frozen as soon as it answers and cannot keep working in the background.
 */

/** What regenerates a key from scratch: the request as received (x-api-header-* headers included). */
export interface RefreshRequest {
  readonly rawQueryString: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

export interface RefreshJob {
  readonly key: string;
  /** Regenerates and stores the key in this process. */
  readonly run: () => Promise<void>;
  readonly request: RefreshRequest;
}

/**
 * Starts a refresh and returns without waiting for it. A returned promise is awaited before the stale answer goes
 * out: the Lambda refresher uses it so the invocation is sent before the function is frozen.
 */
export type Refresh = (job: RefreshJob) => void | Promise<void>;

export interface LocalRefresher {
  readonly refresh: Refresh;
  /** Settles once no refresh is running (tests, and a graceful shutdown). */
  idle(): Promise<void>;
}

/** Refreshes in this process, one at a time per key: a refresh asked for while one runs is dropped. */
export function createLocalRefresher(onError?: (error: unknown, key: string) => void): LocalRefresher {
  const running = new Map<string, Promise<void>>();
  return {
    refresh({ key, run }) {
      if (running.has(key)) return;
      // setImmediate: the stale answer is sent before the refresh starts any work.
      const task = new Promise<void>((resolve) => setImmediate(resolve))
        .then(run)
        .catch((error: unknown) => onError?.(error, key))
        .finally(() => running.delete(key));
      running.set(key, task);
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
