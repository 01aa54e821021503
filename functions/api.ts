/**
 * The Lambda handler: a middy chain (Powertools logger, metrics, tracer; a last-resort error answer) around one
 * call into lib/. API Gateway HTTP API, payload format 2.0. CORS, the preflight, security headers and header-name
 * case are the core's (lib/http/), shared with the local service.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createApp, type App, type AppDeps } from '../lib/app.ts';
import { createLambdaRefresher, isRefreshEvent, type RefreshEvent } from '../lib/aws/lambda-refresh.ts';
import { loadConfig, type Config } from '../lib/config.ts';
import { withStandardHeaders } from '../lib/http/headers.ts';
import type { ApiRequest } from '../lib/http/types.ts';
import { LAMBDA_RETURN_RESERVE_MS } from '../lib/time/limits.ts';
import { errorResponse } from '../lib/http/respond.ts';
import { logger, metrics, tracer } from './observability.ts';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

function toApiRequest(event: Event, context: Context): ApiRequest {
  const headers: Record<string, string | undefined> = { ...event.headers };
  if (event.cookies?.length) headers.cookie = event.cookies.join('; ');
  return {
    method: event.requestContext.http.method.toUpperCase(),
    rawQueryString: event.rawQueryString ?? '',
    headers,
    requestId: event.requestContext.requestId || context.awsRequestId,
    receivedAt: event.requestContext.timeEpoch || Date.now(),
    deadline: Date.now() + context.getRemainingTimeInMillis() - LAMBDA_RETURN_RESERVE_MS,
  };
}

const onUnexpectedError = (error: unknown, requestId: string) =>
  logger.error('unexpected error', { error: error as Error, requestId });

/** Last resort: whatever escapes the app still answers the contract's EFATAL payload, never a stack trace. */
const lastResort = (config: Config): middy.MiddlewareObj<Event, Result> => ({
  onError: async (request) => {
    logger.error('unhandled error', { error: request.error as Error });
    const requestId = request.event?.requestContext?.requestId || request.context.awsRequestId;
    request.response = withStandardHeaders(errorResponse(request.error, { requestId, docsUrl: config.docsUrl, target: undefined }));
  },
});

/** In Lambda, stale cache entries are refreshed by an asynchronous invocation of this same function. */
function lambdaRefresh(config: Config): AppDeps {
  if (!config.lambda) return {};
  const { functionName, region } = config.lambda;
  return { refresh: createLambdaRefresher(functionName, region, { onError: (error) => onUnexpectedError(error, 'refresh') }) };
}

/** `app` lets a caller (the tests) build the app with its own dependencies; by default one is built from config. */
export function createHandler(config: Config, { app, ...deps }: AppDeps & { app?: App } = {}) {
  const core = app ?? createApp(config, { onUnexpectedError, ...lambdaRefresh(config), ...deps });
  const http = middy<Event, Result>();
  if (tracer) http.use(captureLambdaHandler(tracer));
  http
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics))
    .use(lastResort(config))
    .handler(async (event, context) => {
      const request = toApiRequest(event, context);
      const response = await core.handle(request);
      // A preflight is the browser's, not a caller's request: it is not counted.
      if (request.method !== 'OPTIONS') {
        const outcome = response.statusCode < 400 ? 'success' : response.statusCode < 500 ? 'fail' : 'error';
        metrics.addMetric(outcome, MetricUnit.Count, 1);
      }
      return response;
    });
  // A self-invocation refreshing a stale entry is not an HTTP request: it skips the middy chain.
  return async (event: Event | RefreshEvent, context: Context): Promise<Result> => {
    if (!isRefreshEvent(event)) return http(event, context);
    const { rawQueryString, headers } = event.glanceRefresh;
    const request = { method: 'GET', rawQueryString, headers, requestId: context.awsRequestId, receivedAt: Date.now() };
    const { statusCode } = await core.handle(request, 'refresh');
    logger.info('refreshed a stale entry', { statusCode });
    return { statusCode };
  };
}

export const handler = createHandler(loadConfig());
