/**
 * The address a request came from, as the local rate limit counts it (lib/http/rate-limit.ts). The socket's peer,
 * unless the operator says how many proxies of theirs stand in front (GLANCE_TRUST_PROXY_HOPS): then the entry of
 * X-Forwarded-For that many hops back, since each proxy appends the address it was reached from, and anything
 * further left is whatever the caller wrote.
 */
import ipaddr from 'ipaddr.js';

/** What an address that is none (a proxy writing `unknown`, a hop count larger than the proxies) counts as: one client. */
const UNKNOWN = 'unknown';

/**
 * IPv4 as itself (an IPv4-mapped IPv6 peer included); IPv6 by its /64, the block one subscriber is given
 * (RFC 6177), so a caller does not get a fresh count from each address of its own block.
 */
function counted(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return UNKNOWN;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trustedHops: number): string {
  if (trustedHops === 0 || forwardedFor === undefined) return counted(peer);
  const chain = [...forwardedFor.split(',').map((entry) => entry.trim()), peer];
  return counted(chain[Math.max(0, chain.length - 1 - trustedHops)]);
}
