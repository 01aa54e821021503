/**
 * The core: one request in, one response out, no Lambda or node:http types (fastify's habit: the app is built by
 * a function and served elsewhere, so tests drive it directly). Both transports get the same HTTP behaviour from
 * here: OPTIONS preflight, lower-case header names, HEAD without a body, CORS and security headers. Data flows one
 * way: method and key → query → target check → cache → pipeline (load, extract, capture, store) → respond.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createKeyCheck } from './http/api-keys.ts';
import {
  cacheHeaders,
  createLocalRefresher,
  nestedKey,
  ResultCache,
  type CacheStore,
  type CacheStatus,
  type Produced,
  type Refresh,
} from './cache/index.ts';
import type { Config } from './config.ts';
import { GlanceError } from './errors.ts';
import { parseTarget, type Resolver, type VettedUrl } from './fetch/index.ts';
import { depthOf, HOP_HEADER, mediaHop, NESTED_PROOF_HEADER, type Hop } from './guard/loop.ts';
import type { ApiRequest, ApiResponse } from './http/types.ts';
import { pickPaths } from './http/data-paths.ts';
import { runPipeline, type PipelineDeps } from './pipeline/index.ts';
import { usualPageSetup } from './pipeline/render-request.ts';
import { featuresOf, type Feature } from './pipeline/features.ts';
import type { OembedProvider } from './oembed/providers.ts';
import { PingCache } from './ping/index.ts';
import { TIMEOUT, type Options } from './query/options.ts';
import { preflight } from './http/cors.ts';
import { accessRecord, type AccessRecord } from './http/access-log.ts';
import { lowerCaseNames, varyOf, withStandardHeaders } from './http/headers.ts';
import { clientAddress } from './http/client-address.ts';
import { isCurrent, notModified, withEtag } from './http/etag.ts';
import { clientOf, overLimit, RateLimiter, rateHeaders, type RateVerdict } from './http/rate-limit.ts';
import { isForwardedHeader } from './query/forwarded-headers.ts';
import { createRequestParser } from './http/parse-request.ts';
import { createPlayground } from './http/playground/index.ts';
import { MCP_PATH, mcpPreflight, withBearerKey, withMcpCors } from './mcp/doors.ts';
import { createMcpRoute } from './mcp/route.ts';
import { errorResponse, jsonInSlices } from './http/respond.ts';
import { faultRecord, isFatal, type FaultRecord } from './http/fault.ts';
import { embedAnswer } from './embed/index.ts';
import type { Storage } from './storage/index.ts';
import { createCacheStore, createStorage } from './stores.ts';
import { sweepInterval, sweepPeriodically } from './storage/sweep.ts';
import { Budget } from './time/budget.ts';
import { Timings } from './time/timings.ts';
import { WorkPool } from './work/pool.ts';
import { boundBacktracking } from './work/regexp.ts';
import { loadDateParsers } from './extract/date-words.ts';

type BrowserEvents = import('./browser/index.ts').BrowserEvents;

/** What happened, for whoever counts it (the Lambda handler's metrics): lib/ never imports a metrics library. */
export interface AppEvents extends BrowserEvents {
  /** A caller's request answered through the cache: how, and the costly features it asked for. */
  answered?(event: { cache: CacheStatus; features: readonly Feature[] }): void;
}

export interface AppDeps {
  /** DNS for targets; tests inject one to make public-looking names resolve where they like. */
  resolver?: Resolver;
  /** Where our own failures are reported (lib/http/fault.ts): every EFATAL answer's cause, once, with its request
   *  id, and what failed in the background (cache store, refresh, sweep). Their stacks never reach a caller. */
  onFault?: (fault: FaultRecord) => void;
  /** Where the one access record of each answered request goes (lib/http/access-log.ts). */
  onAnswered?: (record: AccessRecord) => void;
  /** Where screenshots and PDFs go; by default the store the configuration names. */
  storage?: Storage;
  /** Where answers are cached; by default the store the configuration names (`null`: no cache). */
  cacheStore?: CacheStore | null;
  /** How stale entries are refreshed; by default in this process. Lambda refreshes in another invocation. */
  refresh?: Refresh;
  /** Extra Chromium flags (tests keep Chromium's own DNS off the network with --host-resolver-rules). */
  browserArgs?: string[];
  /** The oEmbed provider registry; by default the one shipped in the `oembed-providers` package. */
  oembedProviders?: readonly OembedProvider[];
  /** Where CPU work over page content runs; by default `config.workers` worker threads (lib/work/). */
  work?: WorkPool;
  events?: AppEvents;
  /** The clock the rate limit's windows are counted on; tests move it instead of waiting. */
  now?: () => number;
}

/**
 * `refresh`: a background refresh of a stale entry asked for by this service itself (regenerate, no key check);
 * `mcp`: a tool's query, whose MCP request was admitted (key, rate limit) once for all its calls.
 */
export type Origin = 'caller' | 'refresh' | 'mcp';

export interface App {
  handle(request: ApiRequest, origin?: Origin): Promise<ApiResponse>;
  /**
   * Loads now what a request would otherwise load on its clock (the local service's start-up): the workers with
   * their jobs' modules, the adblock engine and Lighthouse. A prebuilt adblock engine that cannot be loaded is
   * reported here, once, and its requests then fail at once.
   */
  prepare(): Promise<void>;
  /**
   * Loads the prebuilt adblock engine (GLANCE_ADBLOCK_ENGINE) now, tens of milliseconds, without the browser's modules:
   * rejects, saying why, when it is corrupt or another adblocker version wrote it. Nothing to do without one.
   */
  loadAdblockEngine(): Promise<void>;
  /** Starts the browser and its spare page before any request needs them (GLANCE_BROWSER_AT_INIT). */
  warmBrowser(): Promise<void>;
  /** Waits for background refreshes, then stops the browser if one was started. */
  close(): Promise<void>;
}

export function createApp(config: Config, deps: AppDeps = {}): App {
  boundBacktracking();
  let renderer: ReturnType<PipelineDeps['renderer']> | undefined;
  let providers: ReturnType<PipelineDeps['oembedProviders']> | undefined;
  const work = deps.work ?? new WorkPool({ size: config.workers });
  const audits = new WorkPool({ size: 1, maxWaiting: MAX_WAITING_REPORTS, resourceLimits: LIGHTHOUSE_LIMITS, closeGraceMs: REPORT_CLOSE_MS });
  const browserArgs = [...config.chromiumArgs, ...(deps.browserArgs ?? [])];
  const nestedProof = randomBytes(24).toString('base64url');
  const pipeline: PipelineDeps = {
    config,
    nestedProof,
    work,
    audits,
    browserArgs,
    resolver: deps.resolver,
    storage: deps.storage ?? createStorage(config.storage, config.cdnUrl),
    pingCache: new PingCache(),
    oembedProviders: () =>
      (providers ??= deps.oembedProviders
        ? Promise.resolve(deps.oembedProviders)
        : import('./oembed/providers.ts').then(({ shippedProviders }) => shippedProviders())),
    // Imported on first need only: puppeteer stays off the metadata path.
    renderer: () =>
      (renderer ??= import('./browser/index.ts').then(({ createRenderer }) =>
        createRenderer({
          config,
          work,
          resolver: deps.resolver,
          extraArgs: browserArgs,
          events: deps.events,
          usualSetup: () => usualPageSetup(config.userAgent),
        }),
      )),
  };
  // The cache store's reads and writes, local refreshes and the folders' sweeps: no caller waits on these.
  const report = (error: unknown) => deps.onFault?.(faultRecord('background', error, undefined));
  /** The one place a failure becomes an answer: an EFATAL's cause is logged here, once, with the request id. */
  const failed = (error: unknown, requestId: string, target: string | undefined): ApiResponse => {
    if (isFatal(error)) deps.onFault?.(faultRecord('EFATAL', error, requestId));
    return errorResponse(error, { requestId, docsUrl: config.docsUrl, target });
  };
  const local = deps.refresh ? undefined : createLocalRefresher(report);
  const store = deps.cacheStore === null ? undefined : (deps.cacheStore ?? createCacheStore(config.cache));
  // Local folders forget what is past the retention (buckets do by lifecycle rule): now, then periodically.
  const sweeps = sweepPeriodically([pipeline.storage, store], sweepInterval(config.retention), report);
  const cache = new ResultCache(store, {
    refresh: deps.refresh ?? (local as NonNullable<typeof local>).refresh,
    onError: report,
  });
  const proxyDeps = { policy: config.policy, userAgent: config.userAgent, resolver: deps.resolver, cdnUrl: config.cdnUrl };
  const checkKey = createKeyCheck(config.apiKeys);
  const parse = createRequestParser();
  const limiter = config.rateLimit && new RateLimiter(config.rateLimit, { now: deps.now });
  const playground = createPlayground({ keyed: checkKey !== undefined, plainHttp: config.lambda === undefined, mcpPath: MCP_PATH });
  const mcp = createMcpRoute({
    config,
    storage: pipeline.storage,
    query: (request) => handle(request, 'mcp'),
    onUnexpectedError: (error, requestId) => deps.onFault?.(faultRecord('EFATAL', error, requestId)),
  });

  /** The answer for a valid request: a failure carries its code, which decides whether it may be cached. */
  async function produce(url: VettedUrl, options: Options, budget: Budget, timings: Timings, requestId: string, hop: Hop): Promise<Produced> {
    try {
      const { envelope, mode, loadMs, outbound } = await budget.race(runPipeline(url, options, budget, timings, pipeline, hop), timeUp(options.timeout));
      if (options.filter) envelope.data = pickPaths(envelope.data, options.filter);
      const headers: Record<string, string> = { 'x-fetch-mode': mode };
      if (loadMs !== undefined) headers['x-fetch-time'] = `${Math.round(loadMs)}ms`;
      // The etag is made here, once, and kept with the answer in the cache.
      if (!options.embed) return { answer: await withEtag(await jsonInSlices(200, envelope, headers)) };
      const embedDeps = { ...proxyDeps, target: url, outbound, hop: outbound.mediaHop(hop), maxBytes: config.embedProxyMaxBytes, budget, timings };
      const answer = await budget.race(embedAnswer(envelope, { ...options, embed: options.embed }, headers, embedDeps), timeUp(options.timeout));
      return { answer: await withEtag(answer) };
    } catch (error) {
      return { answer: failed(error, requestId, options.url), error: error instanceof GlanceError ? error.code : 'EFATAL' };
    } finally {
      // Whatever is still running for this answer (a hedged probe, an upload) stops once it is decided.
      budget.abort();
    }
  }

  /**
   * The key check, then the rate limit, which counts a valid key's requests together and any other by address. A
   * wrong key is counted against its address before it is refused, so keys cannot be guessed at speed. `counted`
   * gets the verdict even when it refuses (its headers go on the refusal).
   */
  const proof = Buffer.from(nestedProof);
  const provesNested = (given: string | undefined): boolean => {
    const bytes = Buffer.from(given ?? '');
    return bytes.length === proof.length && timingSafeEqual(bytes, proof);
  };

  async function admit(request: ApiRequest, arrival: Budget, counted: (verdict: RateVerdict) => void): Promise<void> {
    const presented = request.headers['x-api-key'];
    const refused = checkKey && (await arrival.race(checkKey(presented).then(() => undefined, (error: unknown) => error), timeUp(TIMEOUT.max)));
    // A nested request this process set off: its caller's request was counted (NESTED_PROOF_HEADER).
    if (limiter && !provesNested(request.headers[NESTED_PROOF_HEADER])) {
      const validKey = checkKey && refused === undefined ? presented : undefined;
      const verdict = limiter.take(clientOf(validKey, clientAddress(request.clientAddress, request.headers['x-forwarded-for'], config.trustProxyHops)));
      counted(verdict);
      if (!verdict.allowed) throw overLimit(verdict);
    }
    if (refused !== undefined) throw refused;
  }

  async function handle(raw: ApiRequest, origin: Origin = 'caller'): Promise<ApiResponse> {
    if (raw.method === 'OPTIONS') return raw.path === MCP_PATH ? mcpPreflight() : preflight();
    // MCP clients send their key as `Authorization: Bearer` as often as `x-api-key`: one key, checked and logged alike.
    const lowered = lowerCaseNames(raw.headers);
    const headers = raw.path === MCP_PATH ? withBearerKey(lowered) : lowered;
    const request = headers === raw.headers ? raw : { ...raw, headers };
    const timings = new Timings();
    let target: string | undefined;
    let response: ApiResponse;
    let rate: RateVerdict | undefined;
    // Other methods are refused whatever the request holds.
    const vary = request.method === 'GET' || request.method === 'HEAD' ? varyOf(request.rawQueryString, checkKey !== undefined) : undefined;
    /** Every answer's last touches: timing, vary and rate headers, the access record, HEAD's empty body, the standard headers. */
    const finish = (answer: ApiResponse, policy?: string): ApiResponse => {
      const total = Date.now() - request.receivedAt;
      answer.headers = {
        ...answer.headers,
        ...(vary ? { vary } : {}),
        ...(rate ? rateHeaders(rate) : {}),
        'x-request-id': request.requestId,
        'x-response-time': `${total}ms`,
        'server-timing': timings.header(total),
      };
      deps.onAnswered?.(accessRecord(request, origin, answer, target, timings, total));
      if (request.method === 'HEAD') answer.body = '';
      return request.path === MCP_PATH ? withMcpCors(withStandardHeaders(answer)) : withStandardHeaders(answer, policy);
    };
    try {
      if (request.path === MCP_PATH) {
        const arrival = Budget.until(Math.min(request.receivedAt + TIMEOUT.max, request.deadline ?? Infinity));
        return finish(await mcp(request, (keyed) => admit(keyed, arrival, (verdict) => (rate = verdict))));
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new GlanceError('EMETHOD', `The method ${request.method} is not allowed: use GET or HEAD.`);
      }
      // Before the key check and the cache: a request from a Glance answering another Glance does no work at all.
      const depth = depthOf(request.headers[HOP_HEADER]);
      // A person's browser at the bare address: a static page, before the key check (lib/http/playground/).
      if (origin === 'caller' && playground.wanted(request)) return finish(playground.response(), playground.policy);
      // One clock for the whole request, started when it arrived and never past what the transport allows
      // (a Lambda invocation's remaining time): the key check and the cache read are inside it too.
      const limit = request.deadline ?? Infinity;
      const arrival = Budget.until(Math.min(request.receivedAt + TIMEOUT.max, limit));
      if (origin === 'caller') await admit(request, arrival, (verdict) => (rate = verdict));
      const { options, key: callerKey } = await parse(request.rawQueryString, request.headers);
      // A nested answer never pings a Glance: it must not be served to a caller, nor join a caller's flight (which may
      // be the very one waiting on it).
      const key = depth === 0 ? callerKey : nestedKey(callerKey);
      target = options.url;
      const url = parseTarget(options.url, config.policy);
      const budget = Budget.until(Math.min(request.receivedAt + options.timeout, limit));
      const answer = cache.answer(
        key,
        // `force` is the caller's, not a page's: a nested answer may come from the cache, so a page naming a Glance
        // embed address with `force` cannot make each of its readers cost a render.
        { ttl: options.ttl, staleTtl: options.staleTtl, force: (depth === 0 && options.force) || origin === 'refresh', deadline: budget.deadline },
        () => produce(url, options, budget, timings, request.requestId, mediaHop(depth)),
        { rawQueryString: request.rawQueryString, headers: request.headers },
      );
      // A clock of its own on the same deadline: produce() aborts `budget` once its answer is decided, which must
      // not read as the time running out before the cache hands that answer back.
      const outcome = await Budget.until(budget.deadline).race(answer, timeUp(options.timeout));
      if (origin !== 'refresh') deps.events?.answered?.({ cache: outcome.status, features: featuresOf(options) });
      // An answer shaped by x-api-header-* (a cookie, say) is not one an edge cache may share.
      const shared = !Object.keys(request.headers).some(isForwardedHeader);
      // withEtag: entries stored before answers had etags get one here.
      const answered = await withEtag(outcome.answer);
      response = { ...answered, headers: { ...answered.headers, ...cacheHeaders(outcome, { shared }) } };
      if (isCurrent(request.headers['if-none-match'], response.headers.etag)) response = notModified(response);
    } catch (error) {
      response = failed(error, request.requestId, target);
    }
    return finish(response);
  }

  return {
    handle,
    prepare: async () =>
      void (await Promise.all([loadDateParsers(), work.prepare(['rules', 'technologies', 'charset']), audits.prepare(['lighthouse']), pipeline.renderer().then((browser) => browser.prepare())])),
    loadAdblockEngine: async () => {
      if (config.adblock.engine) await (await import('./browser/adblock.ts')).adblocker(config.adblock, work);
    },
    warmBrowser: async () => (await pipeline.renderer()).warm(),
    close: async () => {
      await sweeps.stop();
      await local?.idle();
      try {
        if (renderer) await (await renderer).close();
      } finally {
        await Promise.all([work.close(), audits.close()]);
      }
    },
  };
}

/** Reports that may wait for the one running: each takes seconds, so a longer line would only wait to time out. */
const MAX_WAITING_REPORTS = 2;
/** Lighthouse's worker's heap: a long page's trace and its computed artifacts run to hundreds of MB. */
const LIGHTHOUSE_LIMITS = { maxOldGenerationSizeMb: 1536 };
/**
 * How long Lighthouse's worker, once its report's time is up, may take to close its browser before it is ended
 * outright: a browser whose worker thread is ended exits, but stays a zombie nobody reaps. Its report has already
 * been answered; a browser closes in about 100 ms.
 */
const REPORT_CLOSE_MS = 2000;

/** The contract's ETIMEOUT for a request whose one budget ran out, whichever part was running. */
const timeUp = (timeoutMs: number) => (): never => {
  throw new GlanceError('ETIMEOUT', `The request did not complete within its timeout of ${timeoutMs} ms.`);
};
