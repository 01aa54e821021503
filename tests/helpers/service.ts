/**
 * The local service on 127.0.0.1 with the real handler, for end-to-end tests. By default it exempts 127.0.0.1 and
 * localhost from the address rules (as a developer would with GLANCE_ALLOW_HOSTS); security tests pass
 * `allowHosts: ''` to prove the default refuses them.
 */
import type { AddressInfo } from 'node:net';
import { createHandler } from '../../functions/api.ts';
import { createLocalServer } from '../../functions/local.ts';
import { loadConfig } from '../../lib/config.ts';
import type { Resolver } from '../../lib/fetch/index.ts';

export interface Service {
  readonly url: string;
  /** GET (or another method) `/?<query>` on the service. */
  request(query: string, init?: RequestInit): Promise<Response>;
  /** GET and parse JSON. */
  json(query: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  allowHosts?: string;
  env?: Record<string, string>;
  resolver?: Resolver;
}

export async function startService({ allowHosts = '127.0.0.1,localhost', env = {}, resolver }: ServiceOptions = {}): Promise<Service> {
  const config = loadConfig({ GLANCE_ALLOW_HOSTS: allowHosts, PORT: '0', ...env });
  const server = createLocalServer(createHandler(config, resolver ? { resolver } : {}));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const request = (query: string, init: RequestInit = {}) => fetch(`${url}/?${query}`, { redirect: 'manual', ...init });
  return {
    url,
    request,
    async json(query, init) {
      const response = await request(query, init);
      return { status: response.status, headers: response.headers, body: await response.json() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `url=<target>` properly encoded. */
export const q = (target: string, rest = ''): string => `url=${encodeURIComponent(target)}${rest ? `&${rest}` : ''}`;
