/**
 * `embed.proxy` (docs/CONTRACT.md §6): the media file a URL field names, fetched by Glance and answered as
 * Glance's own, so the answer carries the CORS headers a third-party host does not send and `<img crossorigin>`,
 * canvas and WebGL users can read it. The fetch is the one guarded fetcher's: the address rules on every hop, 10
 * redirects, the answer's outbound allowance, the request's budget, and a size limit read as the bytes arrive.
 */
import { GlanceError } from '../errors.ts';
import { openResponse, type AddressPolicy, type Resolver } from '../fetch/index.ts';
import { splitCallerHeaders } from '../fetch/headers.ts';
import type { Hop } from '../guard/loop.ts';
import type { Outbound } from '../guard/outbound.ts';
import { servedType } from '../media/served-type.ts';
import type { Budget } from '../time/budget.ts';

export interface ProxyDeps {
  readonly policy: AddressPolicy;
  readonly userAgent: string;
  readonly resolver?: Resolver | undefined;
  readonly outbound: Outbound;
  /** GLANCE_EMBED_PROXY_MAX_BYTES: more is ETOOLARGE. */
  readonly maxBytes: number;
  /** The target page's address: the caller's credentials may go to its origin, and only there. */
  readonly target: URL;
  /** The caller's headers for the target (`headers.*`, `x-api-header-*`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The loop mark, as the answer's media probes carry it (lib/guard/loop.ts). */
  readonly hop: Hop;
}

export interface ProxiedMedia {
  readonly contentType: string;
  readonly body: Buffer;
}

/** What Chrome sends for an `<img>` (video and audio servers take anything). */
const ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,video/*,audio/*,*/*;q=0.8';

const notMedia = (url: string, what: string): GlanceError =>
  new GlanceError('ENOTMEDIA', `\`embed.proxy\` serves images, video and audio only: ${url} answered ${what}.`, {
    data: { 'embed.proxy': 'the field must name an image, video or audio file' },
  });

/** The fetcher's ETOOLARGE names a byte count; this one names the setting and the way round it. */
const tooLarge = (url: string, maxBytes: number, cause: unknown): GlanceError =>
  new GlanceError(
    'ETOOLARGE',
    `${url} is larger than the ${maxBytes}-byte limit of \`embed.proxy\` (GLANCE_EMBED_PROXY_MAX_BYTES): leave \`embed.proxy\` out to be redirected to it instead.`,
    { data: { 'embed.proxy': `at most ${maxBytes} bytes` }, cause },
  );

const isTooLarge = (error: unknown): boolean => error instanceof GlanceError && error.code === 'ETOOLARGE';

/** The whole file, read within the limit and the budget, and the content type it may be answered with. */
export async function fetchMedia(url: string, budget: Budget, deps: ProxyDeps): Promise<ProxiedMedia> {
  const { everywhere, targetOnly } = splitCallerHeaders(deps.headers);
  // Credentials (cookies, authorization) go to the page's own origin only, as for the page itself; the fetcher
  // drops them at the first redirect that leaves it.
  const ownOrigin = URL.parse(url)?.origin === deps.target.origin;
  let body: Buffer;
  let label: string | undefined;
  try {
    const response = await openResponse(url, {
      policy: deps.policy,
      budget,
      userAgent: deps.userAgent,
      maxBytes: deps.maxBytes,
      headers: { ...everywhere, accept: ACCEPT },
      ...(ownOrigin ? { targetOnly } : {}),
      resolver: deps.resolver,
      outbound: deps.outbound,
      hop: deps.hop,
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      response.cancel();
      throw notMedia(url, `HTTP ${response.statusCode}`);
    }
    label = response.headers['content-type'];
    try {
      body = Buffer.concat(await Array.fromAsync(response.body));
    } finally {
      response.cancel();
    }
  } catch (error) {
    throw isTooLarge(error) ? tooLarge(url, deps.maxBytes, error) : error;
  }
  if (body.length === 0) throw notMedia(url, 'an empty body');
  const served = servedType(label, body);
  if ('refused' in served) throw notMedia(url, served.refused);
  return { contentType: served.contentType, body };
}
