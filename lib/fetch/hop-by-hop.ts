/**
 * Header fields that belong to one connection rather than to the message (RFC 9110 §7.6.1, with the older
 * `keep-alive`, `proxy-connection` and `trailer` of RFC 2616 §13.5.1): no one forwards them, in either direction.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The hop-by-hop fields plus those the HTTP client frames each request with: a caller setting them would break or
 * smuggle requests.
 */
export const CLIENT_MANAGED: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'host', 'content-length', 'expect', 'http2-settings']);
