/**
 * `iframe`: the provider's own embed for a page, from the published registry first (a known provider's endpoint
 * needs nothing from the page), then from the page's discovery links, whose markup is the page's: only its https
 * player `<iframe>` is kept (player-iframe.ts). No embed is `null`, never an error: a
 * provider that fails, answers nonsense or sits on a refused address leaves the rest of the answer intact.
 */
import type { PageFacts } from '../extract/facts.ts';
import { discoveredEndpoints } from './discover.ts';
import { toIframe, type Iframe } from './embed.ts';
import { registeredEndpoint, type OembedProvider } from './providers.ts';
import { endpointUrl, requestOembed, type OembedSizes, type RequestDeps } from './request.ts';

export type { Iframe, IframeScript } from './embed.ts';

/** Endpoints asked per answer: the registry's and a page's JSON and XML links; more are a page fishing for requests. */
export const MAX_ENDPOINTS = 3;
export { shippedProviders, type OembedProvider } from './providers.ts';

export interface EmbedDeps extends RequestDeps {
  readonly providers: readonly OembedProvider[];
}

/** `urls`: the page's addresses to look up in the registry (the one asked for, then the final one). */
export async function findIframe(urls: readonly string[], facts: PageFacts | undefined, sizes: OembedSizes, deps: EmbedDeps): Promise<Iframe | null> {
  /** Each endpoint, and whether it is a registered provider's (whose markup is trusted whole). */
  const tries: Array<{ request: string; known: boolean }> = [];
  for (const url of urls) {
    const endpoint = registeredEndpoint(url, deps.providers);
    const request = endpoint && endpointUrl(endpoint, url, sizes);
    if (request) {
      tries.push({ request, known: true });
      break;
    }
  }
  for (const { url } of facts ? discoveredEndpoints(facts) : []) {
    const request = endpointUrl(url, undefined, sizes);
    if (request && !tries.some((tried) => tried.request === request)) tries.push({ request, known: false });
  }
  for (const { request, known } of tries.slice(0, MAX_ENDPOINTS)) {
    try {
      const oembed = await requestOembed(request, deps);
      const iframe = oembed && toIframe(oembed, known);
      if (iframe) return iframe;
    } catch {
      // A refused address, a failed or slow endpoint: the next one gets its chance, and the answer its null.
    }
  }
  return null;
}
