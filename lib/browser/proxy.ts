/**
 * The address rules (docs/CONTRACT.md §7) inside the browser: Chromium sends every request of a page (documents,
 * subresources, iframes, redirects, fetch/XHR, websockets, WebRTC's TURN over TCP) through this forward proxy,
 * which vets it exactly as the fetcher does: `parseTarget` for the URL (IP literals, `localhost`), then
 * `guardedLookup` on the address actually connected to. A refused request fails inside the page (403 to
 * Chromium); the capture goes on. One proxy serves one browser context, so its refusals belong to one page.
 * An http HTML document or frame (not a page's fetch or XHR, and at most MAX_SNIFFED of them a page) that declares
 * no charset is labelled with the one the fetcher reads it in (charset.ts).
 *
 * No request interception is needed for other schemes: ws/wss travel as CONNECT tunnels through here, data:,
 * blob: and about: never touch the network, Chromium refuses file: and chrome: from web pages, and it no longer
 * speaks ftp:. Interception would pause every request in the page's renderer, which is slow.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { GlanceError } from '../errors.ts';
import { guardedLookup, systemResolver, type Resolver } from '../guard/lookup.ts';
import type { GuessEncoding } from '../fetch/charset.ts';
import { fetchFailure } from '../fetch/errors.ts';
import { HOP_BY_HOP } from '../fetch/hop-by-hop.ts';
import { parseTarget, type AddressPolicy } from '../guard/policy.ts';
import { loadsDocument, MAX_SNIFFED, mayLackCharset, sniffCharset, withCharset } from './charset.ts';

export type ProxyOptions =
  | { policy: AddressPolicy; resolver?: Resolver; offline?: false; /** Where undeclared documents' encodings are guessed. */ guess: GuessEncoding }
  /** Refuse everything: for contexts that must not touch the network (renderHtml, the default context). */
  | { policy: AddressPolicy; offline: true };

/** A request the proxy could not carry out, and why: EFORBIDDENURL (refused) or EFETCH (unreachable). */
export interface ProxyFailure {
  /** `http://host/path` for plain requests; `host:port` for tunnels (https, wss), whose paths it never sees. */
  readonly target: string;
  readonly error: GlanceError;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy-server` or a context's `proxyServer`. */
  readonly url: string;
  /** Requests refused by the address rules, in order (at most MAX_LOGGED kept). */
  readonly refused: readonly ProxyFailure[];
  /** Why the proxy failed the request for `url`, if it did (the latest failure for that address). */
  failureFor(url: URL): ProxyFailure | undefined;
  /** The Content-Type the target sent for `url`, when the proxy gave it a charset (charset.ts). */
  sentContentType(url: URL): string | undefined;
  /** Stops listening and cuts every connection, tunnels included. */
  close(): Promise<void>;
}

/** Bounds the memory a page that fires thousands of refused (or labelled) requests can make us hold. */
const MAX_LOGGED = 200;


/**
 * Hop-by-hop fields describe the connection to the proxy, not the request; `proxy-*` are ours. Fields named in
 * `connection` are hop-by-hop too.
 */
const NOT_FORWARDED: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'proxy-authorization', 'proxy-authenticate']);

function endToEnd(rawHeaders: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') {
      for (const token of rawHeaders[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!NOT_FORWARDED.has(name) && !named.has(name)) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

const defaultPort = (url: URL): number => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');
const authority = (url: URL): string => `${url.hostname}:${defaultPort(url)}`;

/** The key a failure is kept under: the URL for plain requests, `host:port` for tunnels. */
const failureKey = (url: URL): string => (url.protocol === 'http:' ? url.href.replace(/#.*$/, '') : authority(url));

/** How the proxy answers Chromium for a request it refused; anything else it could not carry out is 502. */
const REFUSALS: Partial<Record<GlanceError['code'], readonly [number, string]>> = {
  EFORBIDDENURL: [403, 'Forbidden'],
  EINVALURL: [400, 'Bad Request'],
  ELOOP: [508, 'Loop Detected'],
};
const statusOf = (error: GlanceError): readonly [number, string] => REFUSALS[error.code] ?? [502, 'Bad Gateway'];
const statusLine = (error: GlanceError): string => statusOf(error).join(' ');

/**
 * Answers Chromium with `answer`, labelled when `sniff` (an undeclared HTML document) with the charset the fetcher
 * reads it in; `labelled` is told the Content-Type it replaced.
 */
async function relay(answer: IncomingMessage, res: ServerResponse, sniff: GuessEncoding | undefined, labelled: (sent: string) => void): Promise<void> {
  const { held, charset } = sniff ? await sniffCharset(answer, sniff) : { held: [], charset: undefined };
  if (res.destroyed) return;
  if (charset !== undefined) labelled(answer.headers['content-type']!);
  res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withCharset(endToEnd(answer.rawHeaders), charset));
  for (const chunk of held) res.write(chunk);
  if (answer.readableEnded) res.end();
  else answer.pipe(res);
}

/** What one proxy keeps: its guard, its connections, and what it refused or labelled. */
interface ProxyState {
  readonly policy: AddressPolicy;
  readonly offline: boolean;
  /** Where undeclared documents' encodings are guessed; none offline. */
  readonly guess: GuessEncoding | undefined;
  readonly lookup: ReturnType<typeof guardedLookup>;
  readonly agent: Agent;
  readonly refused: ProxyFailure[];
  readonly failures: Map<string, ProxyFailure>;
  readonly sentTypes: Map<string, string>;
  readonly tunnels: Set<Duplex>;
  sniffed: number;
}

/** The guess for `answer` to `req` when it is an undeclared document this proxy still sniffs (MAX_SNIFFED); counts it. */
function sniffs(state: ProxyState, req: IncomingMessage, answer: IncomingMessage): GuessEncoding | undefined {
  const { guess } = state;
  if (!guess || state.sniffed >= MAX_SNIFFED || !loadsDocument(req) || !mayLackCharset(req.method, answer.statusCode ?? 0, answer.headers['content-type'])) return undefined;
  state.sniffed += 1;
  return guess;
}

function record(state: ProxyState, target: string, error: GlanceError): GlanceError {
  const failure = { target, error };
  state.failures.set(target, failure);
  if ((error.code === 'EFORBIDDENURL' || error.code === 'ELOOP') && state.refused.length < MAX_LOGGED) state.refused.push(failure);
  return error;
}

const unreachable = (state: ProxyState, url: URL, error: unknown): GlanceError =>
  record(state, failureKey(url), fetchFailure(error, { url, signal: new AbortController().signal, started: performance.now() }));

/** Vetted as the fetcher vets a caller's URL; records and throws EINVALURL / EFORBIDDENURL / ELOOP. */
function vet(state: ProxyState, raw: string, key: string): URL {
  try {
    if (state.offline) throw new GlanceError('EFORBIDDENURL', `${raw} was not loaded: this page may not use the network.`);
    return parseTarget(raw, state.policy, 'A request of the page to');
  } catch (error) {
    throw record(state, key, error instanceof GlanceError ? error : new GlanceError('EINVALURL', String(error)));
  }
}

function forward(state: ProxyState, req: IncomingMessage, res: ServerResponse): void {
  const raw = req.url ?? '';
  let url: URL;
  try {
    // A proxied request carries an absolute URL; anything else is someone talking to the proxy directly.
    if (!/^http:\/\//i.test(raw)) throw new GlanceError('EINVALURL', 'Not a proxy request.');
    url = vet(state, raw, raw.replace(/#.*$/, ''));
  } catch (error) {
    const reason = error as GlanceError;
    res.writeHead(statusOf(reason)[0], { 'content-type': 'text/plain' }).end(reason.message);
    return;
  }
  const upstream = httpRequest({
    agent: state.agent,
    lookup: state.lookup,
    host: bareHost(url),
    port: defaultPort(url),
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers: endToEnd(req.rawHeaders),
  });
  upstream.on('response', (answer) => {
    answer.on('error', () => res.destroy());
    void relay(answer, res, sniffs(state, req, answer), (sent) => {
      if (state.sentTypes.size < MAX_LOGGED) state.sentTypes.set(failureKey(url), sent);
    });
  });
  upstream.on('error', (error) => {
    const reason = unreachable(state, url, error);
    if (res.headersSent) res.destroy();
    else res.writeHead(statusOf(reason)[0], { 'content-type': 'text/plain' }).end(reason.message);
  });
  req.pipe(upstream);
  // Chromium gave up on the request (page closed, fetch aborted): stop the upstream exchange too.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
}

function tunnel(state: ProxyState, req: IncomingMessage, client: Duplex, head: Buffer): void {
  const { tunnels } = state;
  tunnels.add(client);
  client.on('close', () => tunnels.delete(client));
  client.on('error', () => client.destroy());
  const raw = `https://${req.url ?? ''}/`;
  let url: URL;
  try {
    url = vet(state, raw, URL.canParse(raw) ? authority(new URL(raw)) : (req.url ?? ''));
  } catch (error) {
    client.end(`HTTP/1.1 ${statusLine(error as GlanceError)}\r\n\r\n`);
    return;
  }
  const server: Socket = connect({ host: bareHost(url), port: defaultPort(url), lookup: state.lookup });
  tunnels.add(server);
  server.on('close', () => tunnels.delete(server));
  client.on('close', () => server.destroy());
  let connected = false;
  server.once('connect', () => {
    connected = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) server.write(head);
    server.pipe(client);
    client.pipe(server);
  });
  server.on('error', (error) => {
    if (connected) return void client.destroy();
    client.end(`HTTP/1.1 ${statusLine(unreachable(state, url, error))}\r\n\r\n`);
  });
}

export async function startProxy(options: ProxyOptions): Promise<GuardedProxy> {
  const { policy, offline = false } = options;
  const [resolver, guess] = options.offline ? [systemResolver, undefined] : [options.resolver ?? systemResolver, options.guess];
  const state: ProxyState = {
    policy,
    offline,
    guess,
    lookup: guardedLookup(policy, resolver),
    // Keep-alive to targets: a page's subresources from one host reuse one vetted connection.
    agent: new Agent({ keepAlive: true }),
    refused: [],
    failures: new Map(),
    sentTypes: new Map(),
    tunnels: new Set(),
    sniffed: 0,
  };
  const proxy = createServer((req, res) => forward(state, req, res));
  proxy.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => tunnel(state, req, client, head));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    refused: state.refused,
    failureFor: (url) => state.failures.get(failureKey(url)),
    sentContentType: (url) => state.sentTypes.get(failureKey(url)),
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
        for (const socket of state.tunnels) socket.destroy();
        state.agent.destroy();
      }),
  };
}
