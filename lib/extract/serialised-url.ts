/**
 * What WHATWG URL parsing gives for the common shapes of page links, without parsing: a link written as its own
 * serialisation (`https://example.com/a/b?c=d#e`), scheme-relative (`//cdn.example/x`), host-relative (`/a/b`) or
 * fragment-only (`#top`) against an http(s) base. Parsing the corpus's 36 000 links with `URL.parse` was about half
 * of what a 10-rule request cost (issue 12, bench/rules.ts); a regular expression test is a third of that. (A loop
 * over `charCodeAt` was not: attribute values are slices of the page's markup, which the regular expression engine
 * reads in place.)
 *
 * The shapes are deliberately narrow, so that the parser would leave every character as written: a lowercase
 * ASCII host that is neither an IP address (its last label all digits or `0x…`: the IPv4 parser would rewrite it)
 * nor punycode (`xn--` labels are validated), no empty label, no port, no userinfo; path, query and fragment made
 * only of characters no percent-encode set touches, with no `.`/`..` segment (nor `%2e`) and no backslash. Anything
 * else answers undefined and is parsed (lib/extract/url.ts). tests/extract/serialised-url.test.ts holds the edge
 * cases against `URL.parse` itself.
 */

// Unreserved, sub-delims, `:`, `@` and `%` (percent-encoding is never normalised): what no percent-encode set
// touches. `'` is percent-encoded in the query of a special URL.
const PATH_CHAR = String.raw`[A-Za-z0-9\-._~!$&'()*+,;=:@%]`;
/** A path segment that is not `.` or `..`, nor begins like one (WHATWG reads `%2e` as `.`): `/.well-known` is parsed. */
const SEGMENT = String.raw`/(?!\.|%2[eE])${PATH_CHAR}*`;
const QUERY_AND_FRAGMENT = String.raw`(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@%/?#]*)?`;
/**
 * Lowercase ASCII labels, none empty nor punycode (`xn--` labels are validated), the last neither all digits nor
 * `0x…` (the "ends in a number" check: the IPv4 parser would read and rewrite the host).
 */
const LABEL = String.raw`(?!xn--)[a-z0-9-]+`;
const HOST = String.raw`(?:${LABEL}\.)*(?!0x|\d+(?![a-z0-9-]))${LABEL}`;

/** An absolute or scheme-relative link with a path. */
const WITH_HOST = new RegExp(String.raw`^(?:https?:)?//${HOST}(?:${SEGMENT})+${QUERY_AND_FRAGMENT}$`);
/** An absolute or scheme-relative link without a path, which serialises as `/`: the groups are before and after. */
const WITHOUT_PATH = new RegExp(String.raw`^((?:https?:)?//${HOST})(${QUERY_AND_FRAGMENT})$`);
const HOST_RELATIVE = new RegExp(String.raw`^(?!//)(?:${SEGMENT})+${QUERY_AND_FRAGMENT}$`);
const FRAGMENT_ONLY = new RegExp(String.raw`^${QUERY_AND_FRAGMENT.slice(QUERY_AND_FRAGMENT.indexOf('(?:#'))}$`);

/** An http(s) base, as the links resolved against it begin. */
export interface BaseParts {
  /** `https:` */
  readonly scheme: string;
  /** Everything before the path (`https://user@example.com:8080`): a host-relative link keeps it. */
  readonly origin: string;
  /** The base without its fragment, which a fragment-only link replaces; undefined when its query is empty. */
  readonly document: string | undefined;
}

export function baseParts(base: URL): BaseParts | undefined {
  if (base.protocol !== 'https:' && base.protocol !== 'http:') return undefined;
  const { href } = base;
  // Read from the serialisation, not from `hash` and `search`, which are '' for an empty fragment or query too
  // (`https://example.com/?#`). A serialised `#` starts the fragment, and the path starts at the first `/` after
  // `scheme://` (userinfo's `/` is percent-encoded, a host has none).
  const hash = href.indexOf('#');
  const document = hash === -1 ? href : href.slice(0, hash);
  return {
    scheme: base.protocol,
    origin: href.slice(0, href.indexOf('/', base.protocol.length + 2)),
    // Node's parser (ada) drops an empty query there (`#x` against `https://example.com/?` gives
    // `https://example.com/#x`), where WHATWG's text keeps it: such a base is left to the parser, whichever it does.
    document: document.endsWith('?') ? undefined : document,
  };
}

/**
 * `value` (trimmed) resolved against the http(s) base `base`, when it has one of the plain shapes; else undefined
 * (parse it).
 */
export function serialisedUrl(value: string, base: BaseParts): string | undefined {
  switch (value.charCodeAt(0)) {
    case 0x23 /* # */:
      return base.document !== undefined && FRAGMENT_ONLY.test(value) ? base.document + value : undefined;
    case 0x2f /* / */:
      if (HOST_RELATIVE.test(value)) return base.origin + value;
      break;
    case 0x68 /* h */:
      if (!value.startsWith('http')) return undefined;
      break;
    default:
      return undefined;
  }
  const scheme = value.charCodeAt(1) === 0x2f /* / */ ? base.scheme : '';
  if (WITH_HOST.test(value)) return scheme + value;
  const parts = WITHOUT_PATH.exec(value);
  return parts ? `${scheme}${parts[1]}/${parts[2]}` : undefined;
}
