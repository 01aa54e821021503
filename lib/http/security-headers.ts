/**
 * Security headers for every answer (helmet's set, as @middy/http-security-headers computed it), tuned for an API
 * whose answers are JSON, text and redirects that other sites embed.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  // JSON and redirects never need to run anything, load anything or be framed.
  'content-security-policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox; upgrade-insecure-requests",
  // Other sites embed our answers (`<img src>` on an embed address): resources must be loadable cross-origin.
  // Cross-Origin-Embedder-Policy and -Opener-Policy are left out for the same reason: they only isolate documents.
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  // 180 days; no `preload`, which the preload list only accepts from a year on.
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
});

/**
 * `embed=iframe.html` is a player other sites frame (issue 25): framing allowed (no `frame-ancestors`, no
 * X-Frame-Options), and the document sandboxed in an opaque origin — no `allow-same-origin` — so neither the
 * provider's markup nor a page's can read or act on the API's origin. It may run scripts (known providers' widgets),
 * open popups that escape the sandbox (a player's "watch on …" link opens a normal page) and use the Presentation API
 * (casting); never top navigation, forms or modals. Its content is fetched over https only.
 */
export const PLAYER_POLICY =
  "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-presentation; default-src 'none'; frame-src https:; script-src https:; style-src https: 'unsafe-inline'; img-src https: data:; media-src https:; font-src https: data:; connect-src https:; base-uri 'none'; form-action 'none'";

const { 'x-frame-options': _forbidsFraming, ...frameable } = SECURITY_HEADERS;
/** The security headers of a player answer: the same set, framing allowed, its own sandbox. */
export const PLAYER_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...frameable, 'content-security-policy': PLAYER_POLICY });
