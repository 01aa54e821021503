/**
 * One HTTP/1.1 request and its response over the guarded keep-alive agents (connect.ts). The budget's signal
 * ends it at any stage: a resolver that never answers, a connect, a server that never answers, a body that
 * trickles.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Agents } from './agents.ts';
import { https } from './builtins.ts';

export interface ExchangeOptions {
  agents: Agents;
  method: 'GET' | 'HEAD';
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface RawResponse {
  statusCode: number;
  /** Every value of every field, names in lower case (node's `headers` would keep only the first of some). */
  headers: NodeJS.Dict<string[]>;
  body: IncomingMessage;
}

/** Resolves at the response headers; the body is then the caller's to read or release. */
export function exchange(url: URL, options: ExchangeOptions, retryStale = true): Promise<RawResponse> {
  const { agents, method, headers, signal } = options;
  return new Promise((resolve, reject) => {
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const target = { hostname, port: url.port || undefined, path: `${url.pathname}${url.search}`, method, headers };
    const req =
      url.protocol === 'https:'
        ? // SNI and the certificate check name the host; an address is never sent as SNI (RFC 6066 §3).
          https().request({ ...target, agent: agents['https:'], servername: isIP(hostname) ? undefined : hostname })
        : httpRequest({ ...target, agent: agents['http:'] });
    let response: IncomingMessage | undefined;
    // The response first: destroying only the request would drain what the response holds, and a reader would
    // then see a short body end cleanly instead of the budget's error.
    const onAbort = (): void => void (response ?? req).destroy(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // 'close' comes once the response is read to its end (or cut), so the budget bounds the body too.
    req.once('close', () => signal.removeEventListener('abort', onAbort));
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A pooled socket the server closed while it sat idle fails before any answer (on Lambda, a thawed process
      // finds them often). Node's documented remedy is one retry on a new socket; GET and HEAD are idempotent.
      if (retryStale && req.reusedSocket && !response && !signal.aborted && error.code === 'ECONNRESET') {
        resolve(exchange(url, options, false));
      } else {
        reject(error);
      }
    });
    req.once('response', (res: IncomingMessage) => {
      response = res;
      // A client response always has a status.
      resolve({ statusCode: res.statusCode!, headers: res.headersDistinct, body: res });
    });
    req.end();
  });
}
