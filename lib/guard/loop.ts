/**
 * Loop refusal (issue 11 item 3, issue 25). Glance fetches what strangers name, and Glance is itself a fetchable
 * address: a page naming Glance's own endpoint (as its image, its redirect target, a subresource) would make every
 * answer ask Glance again, each of those fan out again, without end. Yet a Glance embed address is what the docs
 * recommend (docs/parameters.md, embed) as a page's `og:image`, so a media address of Glance must be answered once. Two marks:
 * - every request Glance sends carries HOP_HEADER, the depth the request would have at a Glance: `1` for the first
 *   NESTED_PROBES media probes (ping, `embed.proxy`) of a caller's request, `2` for everything else and for
 *   everything a nested request sends, so one caller's request sets off at most NESTED_PROBES nested ones. A
 *   request arriving with `1` is answered as a nested one (its own requests all carry `2`); any other value is
 *   refused with ELOOP before any work, so another deployment or a second name of this one cannot be led round
 *   more than once. A stranger may send `1` too: a nested request does strictly less (no further Glance, its own
 *   cache entries), so the header can only make Glance refuse more;
 * - the service's own public address (GLANCE_PUBLIC_URL) is refused as a target like a private address whenever the
 *   request would carry `2`, so a loop that ends in a refusal does not even leave the process.
 */
import { GlanceError } from '../errors.ts';

/** Sent on every outbound request; its presence on an inbound one means the caller is a Glance. */
export const HOP_HEADER = 'x-glance-hop';

/**
 * Sent, with a secret of the process, on a probe with hop `1` to this service's own address (and nowhere else: it
 * is a target-only header, dropped on a redirect to another origin). A nested request that carries it was set off
 * by a caller's request this process already counted, so the rate limit does not count it again: otherwise every
 * caller's Glance media would share one bucket, the service's own address, which one stranger could empty.
 */
export const NESTED_PROOF_HEADER = 'x-glance-nested';

/** How deep in a chain of Glance requests an answer is: 0 for a caller's, 1 for one a Glance asked for. */
export type Depth = 0 | 1;

/** The HOP_HEADER value of an outbound request: the depth it would be answered at. `2` is never answered. */
export type Hop = '1' | '2';
export const FINAL_HOP: Hop = '2';

/** What the media probes of an answer at `depth` may carry (at most NESTED_PROBES of them, lib/guard/outbound.ts);
 *  every other request of it carries FINAL_HOP. */
export const mediaHop = (depth: Depth): Hop => (depth === 0 ? '1' : FINAL_HOP);

/** The host name as DNS compares it: without case, and `example.` (fully qualified) one with `example`. */
export const hostOf = (url: URL): string => url.hostname.toLowerCase().replace(/\.$/, '');

/** `host:port` with the scheme's default port filled in: how two addresses of one service are compared. */
export const authorityOf = (url: URL): string => `${hostOf(url)}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;

/** The depth an inbound request is answered at, from its HOP_HEADER; ELOOP past the one nested level. */
export function depthOf(hop: string | undefined): Depth {
  if (hop === undefined) return 0;
  if (hop === '1') return 1;
  throw new GlanceError(
    'ELOOP',
    `This request was sent by a Glance service answering another Glance request (it carries \`${HOP_HEADER}: ${hop.slice(0, 20)}\`): Glance answers a request of its own once, never a second level, as a page pointing Glance at its own endpoint would make it loop.`,
  );
}

export const loopToSelf = (subject: string, url: string): GlanceError =>
  new GlanceError('ELOOP', `${subject} ${url} is this Glance service's own address: Glance never fetches itself, which would loop.`, {
    data: { url: 'must not be the Glance service itself' },
  });
