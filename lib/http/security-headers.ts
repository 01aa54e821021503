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
