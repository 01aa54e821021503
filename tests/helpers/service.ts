/**
 * The API for tests, two ways with one interface. `startApp` drives the core in process, no port (fastify's
 * `inject` habit): most API tests only look at payloads and headers. `startService` runs the local service on
 * 127.0.0.1 with the same core, for what needs a real socket: stored assets, other paths, the HTTP client of
 * @microlink/mql, shutdown. By default both exempt 127.0.0.1 and localhost from the address rules (as a developer
 * would with GLANCE_ALLOW_HOSTS); security tests pass `allowHosts: ''` to prove the default refuses them. Stored
 * images and cached answers go to a temporary folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalServer } from '../../functions/local.ts';
import { createApp, type App, type AppDeps, type AppEvents } from '../../lib/app.ts';
import { loadConfig, type Config } from '../../lib/config.ts';
import type { Resolver } from '../../lib/fetch/index.ts';
import type { OembedProvider } from '../../lib/oembed/providers.ts';
import { createStorage } from '../../lib/stores.ts';
import { withSharedAdblockEngine } from './adblock-engine.ts';
import { TEST_BROWSER_ARGS } from './chromium-args.ts';
import { joined } from '../../lib/text/pieces.ts';

/** Chromium's own DNS stays off the network in tests (it otherwise looks up Google hosts at start). */
export { TEST_BROWSER_ARGS } from './chromium-args.ts';

/** The in-process app's own address: never listened on, only the base of the links it answers. */
const IN_PROCESS_URL = 'http://glance.test';

export interface Service {
  readonly url: string;
  /** Where this service keeps cached answers. */
  readonly cacheDir: string;
  /** GET (or another method) `/?<query>` on the service. */
  request(query: string, init?: RequestInit): Promise<Response>;
  /** A request whose JSON body is parsed (the payload's shape is what the tests assert). */
  json(query: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  allowHosts?: string;
  /** Share another service's cache folder (a second cold instance of the same deployment). */
  cacheDir?: string;
  env?: Record<string, string>;
  resolver?: Resolver;
  /** The oEmbed provider registry the service uses instead of the shipped one. */
  oembedProviders?: readonly OembedProvider[];
  /** Receives the core's events (what the Lambda handler counts as metrics). */
  events?: AppEvents;
  /** Chromium flags after the tests' own (TEST_BROWSER_ARGS). */
  browserArgs?: readonly string[];
  /** Load first what the local service loads at start-up (app.prepare: workers, the adblock engine, Lighthouse). */
  prepared?: boolean;
  /** Receives the access record of each answered request (lib/http/access-log.ts). */
  onAnswered?: AppDeps['onAnswered'];
  /**
   * Build the adblock engine from the lists on first use, as a service without GLANCE_ADBLOCK_ENGINE does, instead of
   * loading the tests' shared prebuilt one (tests/helpers/adblock-engine.ts).
   */
  buildsAdblockEngine?: boolean;
}

interface Setup {
  dir: string;
  cacheDir: string;
  env: Record<string, string>;
}

async function setUp({ allowHosts = '127.0.0.1,localhost', cacheDir, env = {}, buildsAdblockEngine = false }: ServiceOptions): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), 'glance-service-'));
  cacheDir ??= join(dir, 'cache');
  const own = { GLANCE_ALLOW_HOSTS: allowHosts, GLANCE_STORAGE_DIR: join(dir, 'assets'), GLANCE_CACHE_DIR: cacheDir, ...env };
  return { dir, cacheDir, env: buildsAdblockEngine ? own : await withSharedAdblockEngine(own) };
}

const buildApp = (config: Config, { resolver, oembedProviders, events, browserArgs = [], onAnswered }: ServiceOptions): App =>
  createApp(config, { resolver, browserArgs: [...TEST_BROWSER_ARGS, ...browserArgs], oembedProviders, ...(events ? { events } : {}), ...(onAnswered ? { onAnswered } : {}) });

function withJson(request: Service['request']): Service['json'] {
  return async (query, init) => {
    const response = await request(query, init);
    return { status: response.status, headers: response.headers, body: await response.json() };
  };
}

/** Statuses whose answer has no body by definition (Fetch: a null body status). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The core in process: a Fetch-style request becomes an ApiRequest, the ApiResponse a Fetch Response. */
export async function startApp(options: ServiceOptions = {}): Promise<Service> {
  const { dir, cacheDir, env } = await setUp(options);
  const app = buildApp(loadConfig({ GLANCE_PUBLIC_URL: IN_PROCESS_URL, ...env }), options);
  if (options.prepared) await app.prepare();
  const request = async (query: string, init: RequestInit = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const method = (init.method ?? 'GET').toUpperCase();
    const answer = await app.handle({ method, rawQueryString: query, headers, requestId: randomUUID(), receivedAt: Date.now() });
    const body = answer.isBase64Encoded ? Buffer.from(joined(answer.body), 'base64') : joined(answer.body);
    return new Response(NULL_BODY.has(answer.statusCode) ? null : body, { status: answer.statusCode, headers: answer.headers });
  };
  return {
    url: IN_PROCESS_URL,
    cacheDir,
    request,
    json: withJson(request),
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The local service on a real socket. */
export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const { dir, cacheDir, env } = await setUp(options);
  const assetsConfig = loadConfig(env);
  const assets = assetsConfig.storage.kind === 'local' ? createStorage(assetsConfig.storage, '') : undefined;
  let app: App | undefined;
  // The app needs the service's own address (the local CDN), known only once it listens.
  const late: App = {
    handle: (request, origin) => (app as App).handle(request, origin),
    prepare: async () => app?.prepare(),
    loadAdblockEngine: async () => app?.loadAdblockEngine(),
    warmBrowser: async () => app?.warmBrowser(),
    close: async () => app?.close(),
  };
  // No grace: a test's teardown closes whatever is still open.
  const local = createLocalServer(late, { assets, graceMs: 0 });
  await new Promise<void>((resolve) => local.server.listen(0, '127.0.0.1', resolve));
  const { port } = local.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  app = buildApp(loadConfig({ PORT: String(port), GLANCE_PUBLIC_URL: url, ...env }), options);
  if (options.prepared) await app.prepare();
  const request = (query: string, init: RequestInit = {}) => fetch(`${url}/?${query}`, { redirect: 'manual', ...init });
  return {
    url,
    cacheDir,
    request,
    json: withJson(request),
    async close() {
      await local.shutdown();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `url=<target>` properly encoded. */
export const q = (target: string, rest = ''): string => `url=${encodeURIComponent(target)}${rest ? `&${rest}` : ''}`;
