/**
 * The core: one request in, one response out, no Lambda or node:http types (fastify's habit: the app is built by
 * a function and served elsewhere, so tests drive it directly). Data flows one way:
 * query → target check → load → extract → shape → respond.
 */
import { Budget } from './budget.ts';
import type { Config } from './config.ts';
import { buildData } from './data.ts';
import { GlanceError } from './errors.ts';
import type { MetaField } from './extract/index.ts';
import { parseTarget, type Resolver } from './fetch/index.ts';
import type { ApiRequest, ApiResponse } from './http.ts';
import { loadPage } from './page.ts';
import { pickPaths } from './paths.ts';
import { parseQuery } from './query/index.ts';
import type { Options } from './query/options.ts';
import { cacheControl, embedResponse, errorResponse, json, type Envelope } from './respond.ts';
import { Timings } from './timing.ts';

export interface AppDeps {
  /** DNS for targets; tests inject one to make public-looking names resolve where they like. */
  resolver?: Resolver;
  /** Where unexpected errors are reported (with their stack, which never reaches the caller). */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
}

export interface App {
  handle(request: ApiRequest): Promise<ApiResponse>;
}

/** Time kept back from the fetch for extraction and answering, so a slow target ends in a precise error. */
const ANSWER_RESERVE_MS = 250;

type FetchMode = 'fetch' | 'skipped';

export function createApp(config: Config, deps: AppDeps = {}): App {
  async function run(request: ApiRequest, options: Options, timings: Timings) {
    const url = parseTarget(options.url, config.policy);
    const fields: MetaField[] =
      options.meta === false
        ? []
        : [...new Set([...options.meta.fields, ...(options.audio ? ['audio' as const] : []), ...(options.video ? ['video' as const] : [])])];
    const budget = new Budget(options.timeout);

    let mode: FetchMode = 'skipped';
    let envelope: Envelope = { status: 'success', data: {}, statusCode: null, redirects: [], headers: {} };
    if (fields.length > 0) {
      mode = 'fetch';
      const page = await timings.measure('fetch', () =>
        loadPage(url, { config, budget: budget.slice(Infinity, ANSWER_RESERVE_MS), headers: options.headers, resolver: deps.resolver }),
      );
      const data = await timings.measure('extract', () => buildData(page, fields));
      envelope = { status: 'success', data, statusCode: page.statusCode, redirects: page.redirects, headers: page.headers };
    }
    if (options.filter) envelope.data = pickPaths(envelope.data, options.filter);
    return { envelope, mode };
  }

  async function handle(request: ApiRequest): Promise<ApiResponse> {
    const timings = new Timings();
    let target: string | undefined;
    let response: ApiResponse;
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new GlanceError('EMETHOD', `The method ${request.method} is not allowed: use GET or HEAD.`);
      }
      const options = parseQuery(request.rawQueryString, request.headers);
      target = options.url;
      const { envelope, mode } = await withinTimeout(options.timeout, run(request, options, timings));
      const headers: Record<string, string> = {
        'cache-control': cacheControl(options.ttl, options.staleTtl),
        'x-fetch-mode': mode,
      };
      const fetchMs = timings.get('fetch');
      if (fetchMs !== undefined) headers['x-fetch-time'] = `${Math.round(fetchMs)}ms`;
      response = options.embed ? embedResponse(envelope, options.embed, headers) : json(200, envelope, headers);
    } catch (error) {
      if (!(error instanceof GlanceError)) deps.onUnexpectedError?.(error, request.requestId);
      response = errorResponse(error, { requestId: request.requestId, docsUrl: config.docsUrl, target });
    }
    const total = Date.now() - request.receivedAt;
    Object.assign(response.headers, {
      'x-request-id': request.requestId,
      'x-response-time': `${total}ms`,
      'server-timing': timings.header(total),
    });
    if (request.method === 'HEAD') response.body = '';
    return response;
  }

  return { handle };
}

/** The whole request ends by `timeout`, whatever a step does (each step also has its own sub-budget). */
async function withinTimeout<T>(timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new GlanceError('ETIMEOUT', `The request did not complete within its timeout of ${timeoutMs} ms.`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
