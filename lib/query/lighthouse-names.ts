/**
 * Names Lighthouse knows, so `insights.lighthouse` refuses a misspelt one before any work rather than passing it on:
 * Lighthouse itself ignores unknown audit ids (and runs every audit when none of `onlyAudits` is known) and falls back
 * to English for an unknown locale. Both lists are the package's, checked against it in tests/app/lighthouse.test.ts.
 */

/**
 * The audit ids of Lighthouse's default configuration in a navigation, which `desktop` and `perf` extend without
 * adding any (`perf` only narrows the categories).
 */
export const LIGHTHOUSE_AUDITS: readonly string[] = [
  'accesskeys', 'agent-accessibility-tree', 'ard-schema', 'aria-allowed-attr', 'aria-allowed-role',
  'aria-command-name', 'aria-conditional-attr', 'aria-deprecated-role', 'aria-dialog-name', 'aria-hidden-body',
  'aria-hidden-focus', 'aria-input-field-name', 'aria-meter-name', 'aria-progressbar-name', 'aria-prohibited-attr',
  'aria-required-attr', 'aria-required-children', 'aria-required-parent', 'aria-roles', 'aria-text',
  'aria-toggle-field-name', 'aria-tooltip-name', 'aria-treeitem-name', 'aria-valid-attr', 'aria-valid-attr-value',
  'autocomplete-valid', 'baseline', 'bf-cache', 'bootup-time', 'button-name', 'bypass', 'cache-insight', 'canonical',
  'charset', 'clickjacking-mitigation', 'cls-culprits-insight', 'color-contrast', 'crawlable-anchors', 'csp-xss',
  'cumulative-layout-shift', 'custom-controls-labels', 'custom-controls-roles', 'definition-list', 'deprecations',
  'diagnostics', 'dlitem', 'doctype', 'document-latency-insight', 'document-title', 'dom-size-insight',
  'duplicate-id-aria', 'duplicated-javascript-insight', 'empty-heading', 'errors-in-console', 'final-screenshot',
  'first-contentful-paint', 'focus-traps', 'focusable-controls', 'font-display-insight', 'forced-reflow-insight',
  'form-field-multiple-labels', 'frame-title', 'geolocation-on-start', 'has-hsts', 'heading-order', 'hreflang',
  'html-has-lang', 'html-lang-valid', 'html-xml-lang-mismatch', 'http-status-code', 'identical-links-same-purpose',
  'image-alt', 'image-aspect-ratio', 'image-delivery-insight', 'image-redundant-alt', 'image-size-responsive',
  'inp-breakdown-insight', 'input-button-name', 'input-image-alt', 'inspector-issues', 'interactive',
  'interactive-element-affordance', 'is-crawlable', 'is-on-https', 'js-libraries', 'label',
  'label-content-name-mismatch', 'landmark-one-main', 'largest-contentful-paint', 'layout-shifts',
  'lcp-breakdown-insight', 'lcp-discovery-insight', 'legacy-javascript-insight', 'link-in-text-block', 'link-name',
  'link-text', 'list', 'listitem', 'llms-txt', 'logical-tab-order', 'long-tasks', 'main-thread-tasks',
  'mainthread-work-breakdown', 'managed-focus', 'max-potential-fid', 'meta-description', 'meta-refresh',
  'meta-viewport', 'metrics', 'modern-http-insight', 'network-dependency-tree-insight', 'network-requests',
  'network-rtt', 'network-server-latency', 'non-composited-animations', 'notification-on-start', 'object-alt',
  'offscreen-content-hidden', 'origin-isolation', 'paste-preventing-inputs', 'presentation-role-conflict',
  'redirects', 'redirects-http', 'render-blocking-insight', 'resource-summary', 'robots-txt', 'screenshot-thumbnails',
  'script-treemap-data', 'select-name', 'server-response-time', 'skip-link', 'speed-index', 'structured-data',
  'svg-img-alt', 'tabindex', 'table-duplicate-name', 'table-fake-caption', 'target-size', 'td-has-header',
  'td-headers-attr', 'th-has-data-cells', 'third-parties-insight', 'third-party-cookies', 'total-blocking-time',
  'total-byte-weight', 'trusted-types-xss', 'unminified-css', 'unminified-javascript', 'unsized-images',
  'unused-css-rules', 'unused-javascript', 'use-landmarks', 'user-timings', 'valid-lang', 'valid-source-maps',
  'video-caption', 'viewport-insight', 'visual-order-follows-dom', 'webmcp-form-coverage', 'webmcp-registered-tools',
  'webmcp-schema-validity',
];

/** The locales Lighthouse has messages for (`getAvailableLocales()`). */
export const LIGHTHOUSE_LOCALES: readonly string[] = [
  'ar', 'ar-XB', 'bg', 'ca', 'cs', 'da', 'de', 'el', 'en', 'en-AU', 'en-GB', 'en-IE', 'en-IN', 'en-SG', 'en-US',
  'en-XA', 'en-XL', 'en-ZA', 'es', 'es-419', 'es-AR', 'es-BO', 'es-BR', 'es-BZ', 'es-CL', 'es-CO', 'es-CR', 'es-CU',
  'es-DO', 'es-EC', 'es-GT', 'es-HN', 'es-MX', 'es-NI', 'es-PA', 'es-PE', 'es-PR', 'es-PY', 'es-SV', 'es-US', 'es-UY',
  'es-VE', 'fi', 'fil', 'fr', 'gsw', 'he', 'hi', 'hr', 'hu', 'id', 'in', 'it', 'iw', 'ja', 'ko', 'lt', 'lv', 'mo',
  'nb', 'nl', 'no', 'pl', 'pt', 'pt-PT', 'ro', 'ru', 'sk', 'sl', 'sr', 'sr-Latn', 'sv', 'ta', 'te', 'th', 'tl', 'tr',
  'uk', 'vi', 'zh', 'zh-HK', 'zh-TW',
];
