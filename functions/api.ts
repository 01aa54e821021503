/**
 * The Lambda handler: a middy chain (Powertools logger, metrics, tracer; a last-resort error answer) around one
 * call into lib/. API Gateway HTTP API, payload format 2.0. CORS, the preflight, security headers and header-name
 * case are the core's (lib/http/), shared with the local service.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createApp, type App, type AppDeps } from '../lib/app.ts';
import { loadTransports } from '../lib/fetch/index.ts';
import { createLambdaRefresher, isRefreshEvent, type RefreshEvent } from '../lib/aws/lambda-refresh.ts';
import { loadS3Sdk } from '../lib/aws/s3-client.ts';
import { loadConfig, type Config } from '../lib/config.ts';
import { withStandardHeaders } from '../lib/http/headers.ts';
import { HEALTH_PATH, healthResponse } from '../lib/http/health.ts';
import { OPENAPI_PATH, openapiResponse } from '../lib/http/openapi.ts';
import { bypassedOrigin, cameThroughOrigin, ORIGIN_HEADER } from '../lib/http/origin-guard.ts';
import { MCP_PATH } from '../lib/mcp/doors.ts';
import type { AccessRecord } from '../lib/http/access-log.ts';
import { faultRecord, type FaultRecord } from '../lib/http/fault.ts';
import type { ApiRequest, ApiResponse } from '../lib/http/types.ts';
import { joined } from '../lib/text/pieces.ts';
import { Budget } from '../lib/time/budget.ts';
import { INIT_WARM_MS, LAMBDA_RETURN_RESERVE_MS } from '../lib/time/limits.ts';
import { errorResponse } from '../lib/http/respond.ts';
import { METRIC } from './metric-names.ts';
import { count, logger, metricEvents, metrics, tracer } from './observability.ts';
import { loadDateParsers } from '../lib/extract/date-words.ts';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

/** Epoch ms by which the core must have answered: what the invocation has left, less the reserve. */
const invocationDeadline = (context: Context): number => Date.now() + context.getRemainingTimeInMillis() - LAMBDA_RETURN_RESERVE_MS;

/**
 * Through CloudFront, API Gateway's source IP is an edge server's; CloudFront's own `cloudfront-viewer-address`
 * (`<ip>:<port>`, set by CloudFront whatever the caller sent, forwarded by stacks/api-cdn.ts) is the caller's.
 */
const viewerAddress = (event: Event): string | undefined =>
  event.headers?.['cloudfront-viewer-address']?.replace(/:\d+$/, '') || event.requestContext.http.sourceIp;

function toApiRequest(event: Event, context: Context): ApiRequest {
  const headers: Record<string, string | undefined> = { ...event.headers };
  // The origin secret stays here: nothing downstream needs it.
  delete headers[ORIGIN_HEADER];
  if (event.cookies?.length) headers.cookie = event.cookies.join('; ');
  // The MCP endpoint's JSON-RPC body (API Gateway has read it whole, within its own 10 MB bound).
  const mcp = event.rawPath === MCP_PATH ? { path: MCP_PATH, body: event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body } : {};
  return {
    ...mcp,
    method: event.requestContext.http.method.toUpperCase(),
    rawQueryString: event.rawQueryString ?? '',
    headers,
    clientAddress: viewerAddress(event),
    requestId: event.requestContext.requestId || context.awsRequestId,
    receivedAt: event.requestContext.timeEpoch || Date.now(),
    deadline: invocationDeadline(context),
  };
}

/** Our own failures (lib/http/fault.ts): every EFATAL answer's cause, once, with the request id. */
const onFault = ({ msg, ...fault }: FaultRecord) => logger.error(msg, { ...fault });

/** The one access record of each request (lib/http/access-log.ts), a structured line in CloudWatch. */
const onAnswered = (record: AccessRecord) => logger.info('answered', { ...record });

/** Last resort: whatever escapes the app still answers the contract's EFATAL payload, never a stack trace. */
const lastResort = (config: Config): middy.MiddlewareObj<Event, Result> => ({
  onError: async (request) => {
    const requestId = request.event?.requestContext?.requestId || request.context.awsRequestId;
    onFault(faultRecord('EFATAL', request.error, requestId));
    request.response = toResult(withStandardHeaders(errorResponse(request.error, { requestId, docsUrl: config.docsUrl, target: undefined })));
  },
});

/** API Gateway takes the body as one string: a large answer's pieces are joined here, on this invocation's own clock. */
const toResult = (response: ApiResponse): Result => ({ ...response, body: joined(response.body) });

/** In Lambda, stale cache entries are refreshed by an asynchronous invocation of this same function. */
function lambdaRefresh(config: Config): AppDeps {
  if (!config.lambda) return {};
  const { functionName, region } = config.lambda;
  const onError = (error: unknown) => {
    count(METRIC.refreshError);
    onFault(faultRecord('refresh', error, undefined));
  };
  return { refresh: createLambdaRefresher(functionName, region, { onError }) };
}

export type Handler = ((event: Event | RefreshEvent, context: Context) => Promise<Result>) & {
  /** Starts Chromium and the spare page now (GLANCE_BROWSER_AT_INIT): see the module's last lines. */
  warmBrowser(): Promise<void>;
  /** Loads the worker, the adblock engine and Lighthouse now (GLANCE_BROWSER_AT_INIT): see the module's last lines. */
  prepare(): Promise<void>;
  /** Loads the prebuilt adblock engine now, or says why it cannot be loaded (see afterInit). */
  loadAdblockEngine(): Promise<void>;
  /** Closes the core: waits for work in flight, launches no browser from then on, then stops the browser. */
  close(): Promise<void>;
};

/** `app` lets a caller (the tests) build the app with its own dependencies; by default one is built from config. */
export function createHandler(config: Config, { app, ...deps }: AppDeps & { app?: App } = {}): Handler {
  const core = app ?? createApp(config, { onFault, onAnswered, events: metricEvents(), ...lambdaRefresh(config), ...deps });
  const http = middy<Event, Result>();
  // Traces keep timings and errors, never an answer: a body holds a page's contents and a key owner's data.
  if (tracer) http.use(captureLambdaHandler(tracer, { captureResponse: false }));
  http
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(lastResort(config))
    .handler(async (event, context) => {
      if (!cameThroughOrigin(config.originSecret, event.headers?.[ORIGIN_HEADER])) {
        const requestId = event.requestContext.requestId || context.awsRequestId;
        return toResult(withStandardHeaders(errorResponse(bypassedOrigin(), { requestId, docsUrl: config.docsUrl, target: undefined })));
      }
      if (event.rawPath === HEALTH_PATH) return toResult(healthResponse(false));
      if (event.rawPath === OPENAPI_PATH) return toResult(await openapiResponse());
      const request = toApiRequest(event, context);
      const response = await core.handle(request);
      // A preflight is the browser's, not a caller's request: it is not counted.
      if (request.method !== 'OPTIONS') {
        count(response.statusCode < 400 ? METRIC.success : response.statusCode < 500 ? METRIC.fail : METRIC.error);
      }
      return toResult(response);
    });
  // A self-invocation refreshing a stale entry is not an HTTP request: it skips the middy chain, so it publishes
  // its metrics itself.
  const invoke = async (event: Event | RefreshEvent, context: Context): Promise<Result> => {
    if (!isRefreshEvent(event)) return http(event, context);
    const { rawQueryString, headers } = event.glanceRefresh;
    const deadline = invocationDeadline(context);
    const request = { method: 'GET', rawQueryString, headers, requestId: context.awsRequestId, receivedAt: Date.now(), deadline };
    try {
      const { statusCode } = await core.handle(request, 'refresh');
      logger.info('refreshed a stale entry', { statusCode });
      // EFATAL and EBUSY are ours; the target's failures (EFETCH, timeouts) are not the refresh's.
      if (statusCode === 500 || statusCode === 503) count(METRIC.refreshError);
      return { statusCode };
    } catch (error) {
      count(METRIC.refreshError);
      throw error;
    } finally {
      // Powertools warns on every publish with nothing to publish.
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    }
  };
  // Invocations not yet answered, which close() lets finish: the core's own close covers the browser's work, not
  // what follows it (storing a capture, the answer itself).
  const inFlight = new Set<Promise<unknown>>();
  const handle = (event: Event | RefreshEvent, context: Context): Promise<Result> => {
    const answer = invoke(event, context);
    const settled = answer.catch(() => undefined).finally(() => inFlight.delete(settled));
    inFlight.add(settled);
    return answer;
  };
  return Object.assign(handle, {
    warmBrowser: () => core.warmBrowser(),
    prepare: () => core.prepare(),
    loadAdblockEngine: () => core.loadAdblockEngine(),
    close: async () => void (await Promise.all([core.close(), ...inFlight])),
  });
}

/**
 * Lambda sends the runtime SIGTERM before it shuts an execution environment down (when an extension is
 * registered; without one the environment is simply frozen and killed). Node's default would end the process
 * with the browser still running; instead the core closes (no Chromium is launched from then on, the browser is
 * closed politely) and the process exits as the runtime expected. Puppeteer's own signal handlers are off
 * (lib/browser/launch.ts), so nothing kills the browser under a page first.
 */
function closeOnSigterm(close: () => Promise<void>): void {
  process.once('SIGTERM', () => {
    logger.info('SIGTERM: closing the browser before the execution environment shuts down');
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: error as Error });
        process.exit(1);
      },
    );
  });
}

const config = loadConfig();
export const handler = createHandler(config);
closeOnSigterm(handler.close);

/** What start-up could not load (lib/http/fault.ts), said once: its requests then answer EFATAL, each logged too. */
const startUpFault = (error: unknown): void => onFault(faultRecord('start-up', error, undefined));

/**
 * What the first request would otherwise load on its clock, loaded once init is over rather than during it: init
 * answers sooner (the runtime then fetches the first event meanwhile), and a request that comes before this is done
 * waits on the same one load, never a second. https with TLS, and zlib; chrono's date parsers; stored in S3 (as
 * deployed), the SDK's chunk.
 * Resolves when all is loaded (a failure is the first request's to meet and report).
 *
 * The prebuilt adblock engine (the stack's) too, unless GLANCE_BROWSER_AT_INIT's prepare loads it below: the adblocker's
 * modules and the engine's deserialization, tens of milliseconds, and no browser module. An engine that is corrupt or
 * from another adblocker version is said here once, as an error record; adblocked captures then answer EFATAL at once
 * (each logged with its request id), while metadata and `adblock=false` captures are served.
 */
export const afterInit: Promise<void> = new Promise((resolve) => setImmediate(resolve)).then(async () => {
  const engine = config.browserAtInit ? undefined : handler.loadAdblockEngine().catch(startUpFault);
  loadTransports();
  await loadDateParsers();
  if (config.storage.kind === 's3' || config.cache.kind === 's3') await loadS3Sdk();
  await engine;
}).catch((error: unknown) => logger.warn('after init: not everything could be loaded', { error: error as Error }));

/**
 * GLANCE_BROWSER_AT_INIT: Chromium and the spare page start during the init phase, which Lambda runs with a full
 * CPU boost before the first invocation (the top-level await holds init until they are ready), so a deployment
 * that mostly takes screenshots does not pay the launch on its first request's clock; the worker, the adblock engine
 * and Lighthouse are loaded beside it, so none holds a request's event loop either. Capped well inside init's 10 s
 * limit; what takes longer goes on, and the first request shares it. Without it a metadata request's cold start pays
 * for none of them: the engine loads with the first adblocked capture (tens of milliseconds), and a report starts the
 * seconds-long Lighthouse import only with time to spare (docs/architecture.md → "Where CPU work runs").
 */
if (config.browserAtInit) {
  // A failure here is the first request's to meet and report, with its request id: init itself must not fail.
  const warming = handler.warmBrowser().catch((error: unknown) => logger.warn('the browser did not start during init', { error: error as Error }));
  const preparing = handler.prepare().catch(startUpFault);
  await Budget.cap(Promise.all([warming, preparing]), INIT_WARM_MS, undefined);
}
