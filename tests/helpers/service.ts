/**
 * The local service on 127.0.0.1 with the real handler, for end-to-end tests. By default it exempts 127.0.0.1 and
 * localhost from the address rules (as a developer would with GLANCE_ALLOW_HOSTS); security tests pass
 * `allowHosts: ''` to prove the default refuses them. Stored images and cached answers go to a temporary folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createHandler } from '../../functions/api.ts';
import { createLocalServer, type LambdaHandler } from '../../functions/local.ts';
import { createApp } from '../../lib/app.ts';
import { loadConfig } from '../../lib/config.ts';
import type { Resolver } from '../../lib/fetch/index.ts';
import type { OembedProvider } from '../../lib/oembed/providers.ts';
import { createStorage } from '../../lib/storage/index.ts';
import { TEST_BROWSER_ARGS } from './chromium-args.ts';

/** Chromium's own DNS stays off the network in tests (it otherwise looks up Google hosts at start). */
export { TEST_BROWSER_ARGS } from './chromium-args.ts';

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
}

export async function startService({ allowHosts = '127.0.0.1,localhost', cacheDir, env = {}, resolver, oembedProviders }: ServiceOptions = {}): Promise<Service> {
  const dir = await mkdtemp(join(tmpdir(), 'glance-service-'));
  let handler: LambdaHandler | undefined;
  // The handler needs the service's own address (the local CDN), known only once it listens.
  const lateHandler: LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => (handler as LambdaHandler)(event, context);
  const base = { GLANCE_ALLOW_HOSTS: allowHosts, GLANCE_STORAGE_DIR: join(dir, 'assets'), GLANCE_CACHE_DIR: cacheDir ?? join(dir, 'cache'), ...env };
  const assetsConfig = loadConfig(base);
  const assets = assetsConfig.storage.kind === 'local' ? createStorage(assetsConfig.storage, '') : undefined;
  const server = createLocalServer(lateHandler, { assets });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({ PORT: String(port), GLANCE_PUBLIC_URL: url, ...base });
  const app = createApp(config, { resolver, browserArgs: TEST_BROWSER_ARGS, oembedProviders });
  handler = createHandler(config, { app });
  const request = (query: string, init: RequestInit = {}) => fetch(`${url}/?${query}`, { redirect: 'manual', ...init });
  return {
    url,
    cacheDir: cacheDir ?? join(dir, 'cache'),
    request,
    async json(query, init) {
      const response = await request(query, init);
      return { status: response.status, headers: response.headers, body: await response.json() };
    },
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `url=<target>` properly encoded. */
export const q = (target: string, rest = ''): string => `url=${encodeURIComponent(target)}${rest ? `&${rest}` : ''}`;
