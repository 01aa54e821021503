/**
 * Loop refusal (issue 11 item 3). Glance fetches what strangers name, and Glance is itself a fetchable address: a
 * page naming Glance's own endpoint (as its image, its redirect target, a subresource) would make every answer ask
 * Glance again, each of those fan out again, without end. Two marks stop it at the first hop:
 * - every request Glance sends (the fetcher, pings, oEmbed, the browser's) carries HOP_HEADER, and a request that
 *   arrives carrying it is refused with ELOOP before any work, so another deployment or a second name of this one
 *   cannot be led round either;
 * - the service's own public address (GLANCE_PUBLIC_URL) is refused as a target like a private address, so the
 *   loop does not even leave the process when the page names it exactly.
 */
import { GlanceError } from '../errors.ts';

/** Sent on every outbound request; its presence on an inbound one means the caller is a Glance. */
export const HOP_HEADER = 'x-glance-hop';
export const HOP_VALUE = '1';

/** `host:port` with the scheme's default port filled in: how two addresses of one service are compared. */
export const authorityOf = (url: URL): string =>
  `${url.hostname.toLowerCase().replace(/\.$/, '')}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;

export const loopFromHop = (): GlanceError =>
  new GlanceError(
    'ELOOP',
    `This request was sent by a Glance service (it carries \`${HOP_HEADER}\`): Glance never answers itself, as a page pointing Glance at its own endpoint would make it loop.`,
  );

export const loopToSelf = (subject: string, url: string): GlanceError =>
  new GlanceError('ELOOP', `${subject} ${url} is this Glance service's own address: Glance never fetches itself, which would loop.`, {
    data: { url: 'must not be the Glance service itself' },
  });
