/**
 * The published oEmbed provider registry (https://oembed.com/#section7, the `oembed-providers` package): which
 * endpoint answers for a URL. The list is passed in, so tests can register a provider of their own; the product
 * uses the copy shipped in node_modules, read on first need and never fetched at run time.
 */
import { createRequire } from 'node:module';

export interface OembedEndpoint {
  /** URL patterns with `*` wildcards (`https://*.youtube.com/watch*`); an endpoint without any is discovery-only. */
  readonly schemes?: readonly string[];
  /** May hold `{format}` (`…/oembed.{format}`). */
  readonly url: string;
}

export interface OembedProvider {
  readonly provider_name: string;
  readonly endpoints: readonly OembedEndpoint[];
}

/** The shipped registry. Read with require rather than imported, so bundling leaves its 170 kB out of cold starts. */
export function shippedProviders(): readonly OembedProvider[] {
  return createRequire(import.meta.url)('oembed-providers/providers.json') as OembedProvider[];
}

interface Compiled {
  readonly pattern: RegExp;
  readonly endpoint: string;
}

const compiled = new WeakMap<readonly OembedProvider[], readonly Compiled[]>();

/**
 * `*` matches anything; a leading `*.` in the host also matches no subdomain at all, since registries write
 * `https://*.youtube.com/watch*` for `https://youtube.com/watch?v=…` too.
 */
function schemePattern(scheme: string): RegExp {
  const escaped = scheme.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const source = escaped.replace(/^(https?:\/\/)\*\\\./i, '$1(?:[^/]+\\.)?').replace(/\*/g, '.*');
  return new RegExp(`^${source}$`, 'i');
}

function compile(providers: readonly OembedProvider[]): readonly Compiled[] {
  let found = compiled.get(providers);
  if (!found) {
    found = providers.flatMap((provider) =>
      provider.endpoints.flatMap((endpoint) =>
        (endpoint.schemes ?? []).map((scheme) => ({ pattern: schemePattern(scheme), endpoint: endpoint.url })),
      ),
    );
    compiled.set(providers, found);
  }
  return found;
}

/** The endpoint of the first registered provider whose schemes match `url`, with `{format}` set to json. */
export function registeredEndpoint(url: string, providers: readonly OembedProvider[]): string | undefined {
  const match = compile(providers).find(({ pattern }) => pattern.test(url));
  return match?.endpoint.replace('{format}', 'json');
}
