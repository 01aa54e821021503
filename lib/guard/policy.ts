/**
 * Which addresses Glance may connect to (docs/CONTRACT.md §7): public unicast only, plus the exemptions an operator
 * lists for local development and tests. Targets are chosen by strangers, so everything that leaves the
 * process goes through `parseTarget` (the URL) and `AddressPolicy.allows` (each address actually connected to).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { GlanceError } from '../errors.ts';
import { authorityOf, FINAL_HOP, loopToSelf, type Hop } from './loop.ts';
import { isBadPort, portOf } from './ports.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** Global unicast IPv6 (RFC 4291 §2.4): anything outside it (IPv4-compatible ::/96 included) is not public. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** The well-known NAT64 prefix (RFC 6052): DNS64 networks answer public IPv4-only hosts inside it. */
const NAT64_V6 = ipaddr.parseCIDR('64:ff9b::/96');

const v4FromWords = (high: number, low: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, which is where its packets really go: mapped and translated
 * forms, NAT64, 6to4 (RFC 3056) and both ends of Teredo (RFC 4380, client address stored inverted).
 * `undefined` when it carries none.
 */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4FromWords(p[6]!, p[7]!)];
    case 'rfc6052':
      return address.match(NAT64_V6) ? [v4FromWords(p[6]!, p[7]!)] : undefined;
    case '6to4':
      return [v4FromWords(p[1]!, p[2]!)];
    case 'teredo':
      return [v4FromWords(p[2]!, p[3]!), v4FromWords(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
    default:
      return undefined;
  }
}

/** ipaddr.js names every special-purpose range (loopback, private, linkLocal, carrierGradeNat, reserved…). */
function isPublic(address: Address): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const carried = embeddedV4(v6);
  if (carried) return carried.every(isPublic);
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/**
 * Addresses from the URL parser and from DNS are canonical, which node:net recognises without ipaddr.js's
 * notation-by-notation regular expressions (a third of a cache hit's work). Anything else (an operator's
 * exemption written as `0x7f.1`, say) still goes through ipaddr.js, which reads every notation.
 */
function parseAddress(ip: string): Address | undefined {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 4) return new ipaddr.IPv4(bare.split('.').map(Number));
  if (family === 6) return ipaddr.IPv6.parse(bare);
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : undefined;
}

/** Host names compare without case and without the root label's trailing dot (`Example.COM.` = `example.com`). */
const hostKey = (hostname: string): string => hostname.toLowerCase().replace(/\.$/, '');

export class AddressPolicy {
  readonly #hosts: ReadonlySet<string>;
  readonly #ranges: readonly Range[];
  readonly #local: boolean;
  /** `host:port` of the service's own public addresses, never fetched (lib/guard/loop.ts). */
  readonly #own: ReadonlySet<string>;

  private constructor(hosts: Set<string>, ranges: Range[], local: boolean, own: Set<string>) {
    this.#hosts = hosts;
    this.#ranges = ranges;
    this.#local = local;
    this.#own = own;
  }

  /**
   * What to add to a refusal: on one machine (`local`), how a developer fetches their own pages; deployed,
   * nothing (a stranger cannot change the setting, and the refusal is the answer).
   */
  refusalHint(host: string): string {
    return this.#local ? ` To fetch it from this machine while developing, add it to GLANCE_ALLOW_HOSTS (e.g. GLANCE_ALLOW_HOSTS=${host}).` : '';
  }

  /**
   * Comma-separated exemptions: host names (exact, case-insensitive), IP addresses, or CIDR ranges. '' = none.
   * Throws a RangeError naming an entry that is none of those. `own`: the service's own public base URLs.
   */
  static fromSetting(setting: string, { local = false, own = [] }: { local?: boolean; own?: readonly string[] } = {}): AddressPolicy {
    const hosts = new Set<string>();
    const ranges: Range[] = [];
    for (const entry of setting.split(',').map((part) => part.trim()).filter(Boolean)) {
      const address = parseAddress(entry);
      if (entry.includes('/')) {
        if (!ipaddr.isValidCIDR(entry)) throw new RangeError(`Invalid address exemption "${entry}": not a CIDR range`);
        ranges.push(normaliseRange(ipaddr.parseCIDR(entry)));
      } else if (address) {
        const single = normalise(address);
        ranges.push([single, single.kind() === 'ipv4' ? 32 : 128]);
      } else {
        hosts.add(hostKey(canonicalHost(entry)));
      }
    }
    const authorities = new Set(own.map((url) => URL.parse(url)).filter((url) => url !== null).map(authorityOf));
    return new AddressPolicy(hosts, ranges, local, authorities);
  }

  /** True when `url` names the service itself (same host and port as one of its public addresses). */
  isOwn(url: URL): boolean {
    return this.#own.has(authorityOf(url));
  }

  /** True when the operator listed this host name. */
  exemptsHost(hostname: string): boolean {
    return this.#hosts.has(hostKey(hostname.replace(/^\[(.*)\]$/, '$1')));
  }

  /**
   * True when `ip` may be connected to for a URL whose host is `hostname`: a public unicast address, or exempt
   * (hostname listed, or ip inside a listed address/range).
   */
  allows(ip: string, hostname: string): boolean {
    const address = parseAddress(ip);
    if (!address) return false;
    if (this.exemptsHost(hostname)) return true;
    const plain = normalise(address);
    if (this.#ranges.some(([base, bits]) => base.kind() === plain.kind() && plain.match(base, bits))) return true;
    return isPublic(address);
  }
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one host for exemptions; the public check looks inside on its own. */
function normalise(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** `::ffff:127.0.0.0/104` exempts what `127.0.0.0/8` does. */
function normaliseRange([base, bits]: Range): Range {
  const plain = bits >= 96 ? normalise(base) : base;
  return plain === base ? [base, bits] : [plain, bits - 96];
}

/** Exempt names are compared in the form the URL parser gives them (lower case, punycode for IDNs). */
function canonicalHost(entry: string): string {
  let url: URL | undefined;
  try {
    url = new URL(`http://${entry}`);
  } catch {
    url = undefined;
  }
  if (!url || url.host !== url.hostname || url.pathname !== '/' || url.username || url.search || url.hash) {
    throw new RangeError(`Invalid address exemption "${entry}": expected a host name, an IP address or a CIDR range`);
  }
  return url.hostname;
}

/** RFC 1035 §2.3.4 lengths (on the punycode form the URL parser gives): no name that long can resolve. */
const isDnsName = (hostname: string): boolean => {
  const name = hostname.replace(/\.$/, '');
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => label.length > 0 && label.length <= 63);
};

const shown = (raw: string): string => (raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);

/** RFC 6761 §6.3: `localhost` and its subdomains may be answered locally, without ever reaching DNS. */
const isLocalhostName = (hostname: string): boolean => {
  const name = hostKey(hostname);
  return name === 'localhost' || name.endsWith('.localhost');
};

/** A URL that parseTarget has vetted: code that holds one never vets it again (one check per hop). */
export type VettedUrl = URL & { readonly __vetted: unique symbol };

/**
 * Parses and vets a target address given by a caller or a redirect: throws GlanceError EINVALURL (missing, empty,
 * unparsable, not http/https), ELOOP (the service's own public address) or EFORBIDDENURL (an IP-literal host that is not allowed, `localhost` /
 * `*.localhost`; a bad port of lib/guard/ports.ts, exempt hosts included). Returns the WHATWG-normalised URL,
 * whose parser already turns `2130706433`, `0x7f.1` and `017700000001` into `127.0.0.1`. Never does DNS: names are checked when connecting.
 * `hop`: the loop mark the request will carry; the own address is refused only when Glance would refuse it anyway.
 */
export function parseTarget(raw: string | undefined, policy: AddressPolicy, subject = 'The `url`', hop: Hop = FINAL_HOP): VettedUrl {
  if (raw === undefined || raw.trim() === '') {
    throw new GlanceError('EINVALURL', 'No URL was given: pass the http(s) address of the target page as `url`.', {
      data: { url: 'required' },
    });
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GlanceError('EINVALURL', `${subject} "${shown(raw)}" is not a valid URL: give an absolute http(s) address.`, {
      data: { url: 'must be an absolute http(s) URL' },
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GlanceError(
      'EINVALURL',
      `${subject} "${shown(raw)}" uses the ${url.protocol} scheme: only http and https addresses can be fetched.`,
      { data: { url: 'must be an http(s) URL' } },
    );
  }
  if (hop === FINAL_HOP && policy.isOwn(url)) throw loopToSelf(subject, shown(url.href));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!isIP(host) && !isDnsName(host)) {
    throw new GlanceError('EINVALURL', `${subject} "${shown(raw)}" has a host that is not a valid DNS name.`, {
      data: { url: 'the host must be a valid DNS name or IP address' },
    });
  }
  const forbidden = isIP(host) ? !policy.allows(host, url.hostname) : isLocalhostName(host) && !policy.exemptsHost(host);
  if (forbidden) {
    throw new GlanceError(
      'EFORBIDDENURL',
      `${subject} ${shown(url.href)} points to ${host}, which is not a public address: only public hosts can be fetched.${policy.refusalHint(host)}`,
      { data: { url: 'must point to a public address' } },
    );
  }
  const port = portOf(url);
  if (isBadPort(port)) {
    throw new GlanceError(
      'EFORBIDDENURL',
      `${subject} ${shown(url.href)} uses port ${port}, which Glance never connects to (a port of another protocol).`,
      { data: { url: 'must not use a blocked port' } },
    );
  }
  return url as VettedUrl;
}
