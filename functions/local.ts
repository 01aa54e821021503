/**
 * The local service (the embedded default): the core behind node:http. A request becomes the core's ApiRequest and
 * its ApiResponse is written back (`/mcp` too, the MCP endpoint, with its body); `/health` answers for balancers and
 * `/openapi.json` with the API's description; stored screenshots and PDFs are served as the CDN would; every other path is API Gateway's 404. No middy, no Powertools: a cache hit costs the core's work and the socket's, nothing more.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createApp, type App } from '../lib/app.ts';
import { DEFAULT_SHUTDOWN_GRACE_MS, DOCS_URL, loadConfig } from '../lib/config.ts';
import { GlanceError } from '../lib/errors.ts';
import { withStandardHeaders } from '../lib/http/headers.ts';
import { errorResponse } from '../lib/http/respond.ts';
import type { AccessRecord } from '../lib/http/access-log.ts';
import { faultRecord, type FaultRecord } from '../lib/http/fault.ts';
import { HEALTH_PATH, healthResponse } from '../lib/http/health.ts';
import { OPENAPI_PATH, openapiResponse } from '../lib/http/openapi.ts';
import type { ApiRequest, ApiResponse } from '../lib/http/types.ts';
import { MAX_BODY_BYTES, MCP_PATH } from '../lib/mcp/doors.ts';
import { serveAsset } from '../lib/storage/serve.ts';
import { Budget } from '../lib/time/budget.ts';
import type { Storage } from '../lib/storage/index.ts';
import { createStorage } from '../lib/stores.ts';
import { allPieces, joined, lengthOf } from '../lib/text/pieces.ts';
import { slices } from '../lib/time/slices.ts';

/** Room for long query strings, so the app (not node's 431) answers those past its own 16 KiB limit. */
const MAX_HEADER_BYTES = 64 * 1024;
/** How long answers already being written at the end of a shutdown's grace may take to finish. */
const WRITE_GRACE_MS = 2_000;
/** Characters of a text body written at a time (see write). */
const WRITE_PIECE = 64 * 1024;

/** API Gateway's own answers, in its words. */
const NOT_FOUND = '{"message":"Not Found"}';
const BAD_REQUEST = '{"message":"Bad Request"}';
const INTERNAL_ERROR = '{"message":"Internal Server Error"}';

/** node:http joins repeated request headers itself (RFC 9110 §5.3); only `set-cookie` stays an array. */
function flatHeaders(headers: IncomingHttpHeaders): ApiRequest['headers'] {
  if (!Object.values(headers).some(Array.isArray)) return headers as ApiRequest['headers'];
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function toApiRequest(req: IncomingMessage, target: string, queryAt: number, requestId: string): ApiRequest {
  return {
    method: req.method ?? 'GET',
    rawQueryString: queryAt === -1 ? '' : target.slice(queryAt + 1),
    headers: flatHeaders(req.headers),
    requestId,
    clientAddress: req.socket.remoteAddress,
    receivedAt: Date.now(),
  };
}

/**
 * A request's body as text, read up to a byte past `max` (the app refuses it then: ETOOLARGE); the rest is not read,
 * and the connection closes after the answer.
 */
function readBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (): void => {
      req.off('data', take).off('end', done).off('error', reject);
      resolve(Buffer.concat(chunks).subarray(0, max + 1).toString('utf8'));
    };
    const take = (chunk: Buffer): void => {
      chunks.push(chunk);
      length += chunk.length;
      if (length <= max) return;
      req.pause();
      res.setHeader('connection', 'close');
      done();
    };
    req.on('data', take).on('end', done).on('error', reject);
  });
}

/** Answers that carry no content, and so no Content-Length (RFC 9110 §8.6): a 304's would describe the body not sent. */
const NO_CONTENT = new Set([204, 304]);

/**
 * A large text body is written a piece at a time: turning a multi-megabyte answer into bytes and handing it to the
 * socket in one call held every other request 40–60 ms (bench/stall.ts); a piece waits for the socket to drain. An
 * answer in pieces (lib/text/pieces.ts) is never joined.
 */
async function write(res: ServerResponse, { statusCode, headers, body, isBase64Encoded }: ApiResponse, headOnly: boolean): Promise<void> {
  if (answered(res)) return;
  if (NO_CONTENT.has(statusCode)) return void res.writeHead(statusCode, headers).end();
  if (isBase64Encoded) return void end(res, statusCode, headers, Buffer.from(joined(body), 'base64'), headOnly);
  if (lengthOf(body) <= WRITE_PIECE) return void end(res, statusCode, headers, joined(body), headOnly);
  const pause = slices();
  let length = 0;
  for (const piece of allPieces(body, WRITE_PIECE)) {
    length += Buffer.byteLength(piece);
    await pause();
  }
  if (answered(res)) return;
  res.writeHead(statusCode, { ...headers, 'content-length': String(length) });
  if (headOnly) return void res.end();
  for (const piece of allPieces(body, WRITE_PIECE)) {
    if (res.destroyed) return;
    if (res.write(piece)) await pause();
    else await drained(res);
  }
  res.end();
}

/** Already answered (EBUSY, at the end of a shutdown's grace) or gone: the core's late answer is dropped. */
const answered = (res: ServerResponse): boolean => res.headersSent || res.destroyed;

function end(res: ServerResponse, statusCode: number, headers: Record<string, string>, payload: string | Buffer, headOnly: boolean): void {
  res.writeHead(statusCode, { ...headers, 'content-length': String(Buffer.byteLength(payload)) });
  res.end(headOnly ? undefined : payload);
}

/** Resolves once the response can take more, or is gone. */
const drained = (res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });

/** One JSON line on stderr per fault of ours (lib/http/fault.ts), as the access records are on stdout. */
const logFault = (fault: FaultRecord): void => console.error(JSON.stringify({ level: 'error', time: new Date().toISOString(), ...fault }));

const json = (statusCode: number, body: string): ApiResponse => ({ statusCode, headers: { 'content-type': 'application/json' }, body });

export interface LocalServerOptions {
  /** Stored screenshots and PDFs to serve as the CDN (`/<key>`), when they live on local disk. */
  assets?: Storage | undefined;
  /** How long shutdown() lets requests in flight finish before it answers them EBUSY. */
  graceMs?: number;
  /** The error payload's `more`. */
  docsUrl?: string;
}

export interface LocalServer {
  readonly server: Server;
  /**
   * Stops accepting connections, lets requests in flight finish (up to the grace period), answers those still
   * running 503 EBUSY (a client sees an answer it may retry elsewhere, never a reset), closes the remaining
   * connections, then closes the app (background refreshes, the browser). Idempotent.
   */
  shutdown(): Promise<void>;
}

export function createLocalServer(app: App, { assets, graceMs = DEFAULT_SHUTDOWN_GRACE_MS, docsUrl = DOCS_URL }: LocalServerOptions = {}): LocalServer {
  /** Requests in flight, by response, with their request ids. */
  const inFlight = new Map<ServerResponse, string>();
  let closing: Promise<void> | undefined;
  let drained: (() => void) | undefined;

  async function answer(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    // The API's own address first and without parsing a URL: the cache-hit path.
    const path = target.startsWith('/?') || target === '/' ? '/' : URL.parse(target, 'http://localhost')?.pathname;
    if (path === undefined) return write(res, json(400, BAD_REQUEST), false);
    const headOnly = req.method === 'HEAD';
    if (path === '/') return write(res, await app.handle(toApiRequest(req, target, queryAt, requestId)), headOnly);
    if (path === MCP_PATH) {
      const body = req.method === 'POST' ? await readBody(req, res, MAX_BODY_BYTES) : undefined;
      return write(res, await app.handle({ ...toApiRequest(req, target, queryAt, requestId), path, body }), headOnly);
    }
    if (path === HEALTH_PATH) return write(res, healthResponse(closing !== undefined), headOnly);
    if (path === OPENAPI_PATH) return write(res, await openapiResponse(), headOnly);
    const asset = assets ? await serveAsset(assets, path.slice(1), req.method ?? 'GET', req.headers) : undefined;
    if (asset && !answered(res)) return void res.writeHead(asset.statusCode, asset.headers).end(headOnly ? undefined : asset.body);
    // API Gateway's own route table: only `/` and `/mcp` reach the function.
    return write(res, json(404, NOT_FOUND), false);
  }

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const requestId = randomUUID();
    inFlight.set(res, requestId);
    // Once shutting down, a kept-alive connection is not offered another request.
    if (closing) res.setHeader('connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) drained?.();
    });
    answer(req, res, requestId).catch((error: unknown) => {
      // The core answers its own errors: reaching here means the asset store or the socket failed.
      logFault(faultRecord('transport', error, undefined));
      if (res.headersSent) res.destroy();
      else void write(res, json(500, INTERNAL_ERROR), false);
    });
  });

  /** Every request still unanswered gets EBUSY; an answer already being written is left to finish. */
  function refuseUnanswered(): void {
    const busy = new GlanceError('EBUSY', 'This instance shut down before the request was answered. Retry: another instance will answer.');
    for (const [res, requestId] of inFlight) {
      if (answered(res)) continue;
      const refusal = withStandardHeaders(errorResponse(busy, { requestId, docsUrl, target: undefined }));
      void write(res, { ...refusal, headers: { ...refusal.headers, 'x-request-id': requestId, connection: 'close' } }, false);
    }
  }

  async function stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const idle = new Promise<void>((resolve) => {
      drained = resolve;
      if (inFlight.size === 0) resolve();
    });
    await Budget.cap(idle, graceMs, undefined);
    refuseUnanswered();
    // Answers being written (a large body, a slow reader) get a moment more; a client that stopped reading does not
    // hold the shutdown.
    await Budget.cap(idle, WRITE_GRACE_MS, undefined);
    server.closeAllConnections();
    await closed;
    await app.close();
  }

  return { server, shutdown: () => (closing ??= stop()) };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const assets = config.storage.kind === 'local' ? createStorage(config.storage, config.cdnUrl) : undefined;
  // One JSON line per answered request on stdout (lib/http/access-log.ts: no caller secrets in it), and one per
  // fault of ours on stderr (lib/http/fault.ts: every EFATAL's cause, with its request id).
  const onAnswered = (record: AccessRecord) => console.log(JSON.stringify({ msg: 'answered', ...record }));
  const app = createApp(config, { onFault: logFault, onAnswered });
  // What a first request would otherwise load on its clock, loaded before the first is taken (docs/architecture.md →
  // "Where CPU work runs"). What fails to load is said once, here, as a fault record (a corrupt or mismatched adblock
  // engine, say); its requests then answer EFATAL at once, each logged with its request id, and the others are served.
  const preparing = Date.now();
  await app.prepare().catch((error: unknown) => logFault(faultRecord('start-up', error, undefined)));
  const prepared = Date.now() - preparing;
  const local = createLocalServer(app, { assets, graceMs: config.shutdownGraceMs, docsUrl: config.docsUrl });
  local.server.listen(config.port, config.host, () => {
    const { address, port } = local.server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    console.log(`Glance is listening on http://${host}:${port}/ — try /?url=https://example.com (${config.workers} workers, the adblock engine and Lighthouse loaded in ${prepared} ms)`);
  });
  const stop = (signal: NodeJS.Signals) => {
    console.log(`${signal}: finishing requests in flight (up to ${config.shutdownGraceMs} ms, then EBUSY), then stopping`);
    local.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
