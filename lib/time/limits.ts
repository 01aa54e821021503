/**
 * Every sub-budget in one place (browserless' habit): the request's one Budget (budget.ts) is split by these caps
 * and reserves instead of magic numbers spread through the modules that use them. Each line says why its value is
 * what it is; the request's own `timeout` (default, minimum, maximum) is the query's (lib/query/timing.ts).
 */

// The request as a whole
/** Kept back from loading for extraction, capture and answering, so a slow target ends in a precise error rather
 *  than the whole request's ETIMEOUT. */
export const ANSWER_RESERVE_MS = 250;

/** Kept back from a Lambda invocation's remaining time for what follows the core's answer: middy's
 *  after-middlewares (the metrics flush, the tracer) and handing up to 6 MB back to API Gateway. Without it the
 *  invocation's own timeout would end the request first, with a bare 502 instead of the contract's ETIMEOUT. */
export const LAMBDA_RETURN_RESERVE_MS = 1_000;

// Pipeline steps
/** One oEmbed provider answer is a small JSON document; a slow one must not eat the whole request. */
export const OEMBED_MS = 5000;
/** Each pinged URL's own deadline: a slow host must not hold a field longer than this, whatever the budget left. */
export const URL_TIME_LIMIT_MS = 5000;
/** A ping candidate still unanswered after this long has the next ones probed beside it (lib/ping: most probes
 *  answer within it, so the common case costs no extra request). */
export const HEDGE_AFTER_MS = 120;
/** How long one `data` rule's `evaluate` may run in the page. */
export const EVALUATE_TIME_LIMIT_MS = 5000;

// The browser: admission and a page's life
/** Shortest budget worth starting a page with: open + a simple navigation + capture take about this long. */
export const MIN_RENDER_MS = 1500;
/** Kept back from loading and page actions for the capture: at most this… */
export const CAPTURE_RESERVE_MS = 3000;
/** …and at most this share of the budget, so a short budget still leaves most of itself to loading. */
export const CAPTURE_RESERVE_SHARE = 0.3;
/** A page normally opens in ~100 ms; one still opening after this has its browser probed. */
export const OPEN_SLOW_MS = 2000;
/**
 * Longest wait for a warm spare being made (normally 50–150 ms; lib/browser/spare.ts): past it the request opens its
 * own page, whose opening probes the browser, so a browser that stopped answering is found as without the spare.
 */
export const SPARE_CLAIM_MS = 1000;
/** How long closing a page's context may take before the browser is presumed wedged and replaced. */
export const CONTEXT_CLOSE_MS = 2000;
/** After DOMContentLoaded, how long `waitUntil=auto` waits for `load` (a tracker that never answers must not stall). */
export const AUTO_LOAD_CAP_MS = 5_000;
/**
 * `auto`'s network quiet (lib/browser/quiet.ts), after `load`: nothing in flight, this long since `load` and since
 * the network's last event. Load handlers and zero-delay timers run within a few ms of `load`, animation frames
 * every 16.7 ms, and intersection observers (lazy loaders) report in the frame after the layout that moves an element
 * into view: three frames cover those, and the browser reporting a request under load, with room to spare.
 */
export const AUTO_QUIET_MIN_MS = 50;
/** …and this long since the last fetch or XHR answer, which the page's own code acts on before asking for more… */
export const AUTO_IDLE_MS = 150;
/** …all of it at most this long after `load`. */
export const AUTO_IDLE_CAP_MS = 750;
/**
 * Longest wait, before a capture, for the consent banners being dismissed (lib/browser/consent.ts): a reject button
 * takes autoconsent about 0.5–1 s; a tool whose refusal goes through its settings panel takes a few seconds, and one
 * still at it by then is captured with its banner kept hidden.
 */
export const CONSENT_MS = 3_000;
/** Longest wait for fonts and images before a capture: a slow image must not leave the capture itself without time… */
export const SETTLE_CAP_MS = 1000;
/** …nor more than this share of what is left. */
export const SETTLE_SHARE = 1 / 3;
/** A full-page capture first asks whether anything on the page reacts to scrolling (lib/browser/scrolling.ts),
 *  answered "yes" past this long (a busy main thread; a large heap to walk: 30–120 ms on a loaded 2-core machine
 *  for a plain article, and the pass it spares is longer)… */
export const FULL_PAGE_CHECK_MS = 1_000;
/** …and if so scrolls its area through the viewport (lazy content loads as it comes into view):
 *  at most this many steps, one animation frame each (the default device's 8 192 CSS px cap is 10 steps, ~170 ms),
 *  longer steps for a short viewport… */
export const FULL_PAGE_MAX_STEPS = 32;
/** …each step waiting at most this long for its frame (frames come every ~17 ms; one that takes longer comes from
 *  a loaded machine, and a timer that stood in for it too soon would scroll past positions the page never saw)… */
export const FULL_PAGE_FRAME_MS = 1_000;
/** …for at most this long, for a page whose frames are slow… */
export const FULL_PAGE_SCROLL_MS = 2_000;
/** …then waits at most this long for the images that scrolling started (each is a request on its way)… */
export const FULL_PAGE_IMAGES_MS = 1_500;
/** …the whole pass taking no more than this share of what is left, so the capture itself keeps the rest… */
export const FULL_PAGE_SHARE = 1 / 3;
/** …and is given up from Node this long after its in-page deadline (the scroll back to the top and its frame, the
 *  call's round trip), for a page whose main thread is too busy to answer. */
export const FULL_PAGE_MARGIN_MS = 300;
/** How long `screenshot.element` waits for its element once the page has loaded: a selector that matched nothing
 *  by then is ENOTFOUNDELEMENT rather than a request that runs out its whole budget (`waitForSelector` waits for
 *  the whole budget, for callers who know their element comes late). */
export const ELEMENT_WAIT_MS = 5_000;
/** The element wait ends this long before the budget, so "not found" wins the race with the page deadline. */
export const ELEMENT_MARGIN_MS = 250;

// The browser process
/** A live browser answers Browser.getVersion in milliseconds; one silent this long is busy or wedged. */
export const PROBE_TIMEOUT_MS = 1500;
/** How long a polite browser close may take before the process is killed. */
export const BROWSER_CLOSE_MS = 2000;
/** Longest a launch may take; callers race it with their own budget, this only stops a wedged start. */
export const LAUNCH_TIMEOUT_MS = 20_000;
/** How long Lambda's init phase waits for Chromium (GLANCE_BROWSER_AT_INIT): well inside init's 10 s limit. */
export const INIT_WARM_MS = 7_000;
/** A CDP call that takes longer is wedged; a page's deadline normally ends it much sooner. */
export const PROTOCOL_TIMEOUT_MS = 30_000;

// AWS calls (the SDK's own connection and request timeouts)
/** A cache read sits on the hit path, where a slow bucket costs more than a miss: give up soon. */
export const S3_CACHE_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 3_000 } as const;
/** An upload of a screenshot or PDF (up to a few MB) may take longer than a cache read. */
export const S3_STORAGE_TIMEOUTS = { connectionTimeout: 2_000, requestTimeout: 5_000 } as const;
/** A background refresh is fired and forgotten: the call only has to be accepted. */
export const REFRESH_INVOKE_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 3_000 } as const;
