/**
 * The local service (the embedded default): the same Lambda handler behind node:http. Each request becomes the
 * API Gateway HTTP API (payload 2.0) event it would be in AWS, and the handler's result is written back as API
 * Gateway would (status, headers, cookies, base64 bodies).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { serveAsset } from '../lib/storage/serve.ts';
import type { Storage } from '../lib/storage/index.ts';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** API Gateway's own route table: only `/` reaches the function. */
const ROUTED_PATHS = new Set(['/']);
const MAX_BODY_BYTES = 1024 * 1024;
/** Matches the Lambda function's timeout, so getRemainingTimeInMillis means the same here. */
const INVOCATION_TIMEOUT_MS = 30_000;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function toEvent(req: IncomingMessage, body: Buffer, requestId: string, now: number): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const rawQueryString = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1) : '';
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = req.headers.cookie?.split(/;\s*/).filter(Boolean);
  const queryStringParameters: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    queryStringParameters[key] = key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
  }
  const date = new Date(now);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString,
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(rawQueryString ? { queryStringParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: date.toUTCString(),
      timeEpoch: now,
    },
    ...(body.length ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
  };
}

function toContext(requestId: string, now: number): Context {
  const unsupported = () => {
    throw new Error('callback-style completion is not supported');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'glance-local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:glance-local',
    memoryLimitInMB: '2048',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/glance-local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, now + INVOCATION_TIMEOUT_MS - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

/** Writes a handler result the way API Gateway does for payload 2.0 (a bare value is a 200 JSON body). */
export function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2, headOnly: boolean): void {
  const structured: APIGatewayProxyStructuredResultV2 =
    typeof result === 'object' && result !== null && 'statusCode' in result
      ? result
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
  const body = structured.body ? Buffer.from(structured.body, structured.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  headers['content-length'] = String(body.length);
  res.writeHead(structured.statusCode ?? 200, headers);
  res.end(headOnly ? undefined : body);
}

/** Room for long query strings, so the app (not node's 431) answers those past its own 16 KiB limit. */
const MAX_HEADER_BYTES = 64 * 1024;

export interface LocalServerOptions {
  /** Stored screenshots and PDFs to serve as the CDN (`/<key>`), when they live on local disk. */
  assets?: Storage | undefined;
}

export function createLocalServer(handler: LambdaHandler, { assets }: LocalServerOptions = {}): Server {
  return createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (req, res) => {
    const requestId = randomUUID();
    const now = Date.now();
    try {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const asset = assets && path !== '/' ? await serveAsset(assets, path.slice(1), req.method ?? 'GET', req.headers) : undefined;
      if (asset) {
        res.writeHead(asset.statusCode, asset.headers).end(req.method === 'HEAD' ? undefined : asset.body);
        return;
      }
      if (!ROUTED_PATHS.has(path)) {
        writeResult(res, { statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"Not Found"}' }, false);
        return;
      }
      const body = await readBody(req);
      const result = await handler(toEvent(req, body, requestId, now), toContext(requestId, now));
      writeResult(res, result, req.method === 'HEAD');
    } catch {
      // The handler answers its own errors; reaching here means the request itself was unreadable.
      if (!res.headersSent) {
        writeResult(res, { statusCode: 400, headers: { 'content-type': 'application/json' }, body: '{"message":"Bad Request"}' }, false);
      } else res.destroy();
    }
  });
}

async function main(): Promise<void> {
  // Locally, EMF metrics on stdout are noise; Lambda keeps them (set POWERTOOLS_METRICS_DISABLED=false to see them).
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const { loadConfig } = await import('../lib/config.ts');
  const { createStorage } = await import('../lib/storage/index.ts');
  const { createHandler } = await import('./api.ts');
  const config = loadConfig();
  const assets = config.storage.kind === 'local' ? createStorage(config.storage, config.cdnUrl) : undefined;
  const server = createLocalServer(createHandler(config), { assets });
  server.listen(config.port, () => {
    console.log(`Glance is listening on http://localhost:${config.port}/ — try /?url=https://example.com`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
