/**
 * What the browser is asked to do, decided by the pipeline (lib/pipeline/render-request.ts builds it from the query's
 * options): the browser module reads no query options and makes no choice the pipeline already made. A capture is
 * present only when the answer shows it, with its own options.
 */
import type { Redirect } from '../fetch/index.ts';
import type { Outbound } from '../guard/outbound.ts';
import type { VettedUrl } from '../guard/policy.ts';
import type { LighthouseOptions, PdfOptions, ScreenshotOptions, WaitUntil } from '../query/options.ts';
import type { Budget } from '../time/budget.ts';
import type { Screenshot } from './capture.ts';
import type { PageSetup } from './page.ts';

/** What runs in the page between loading and capturing (lib/browser/actions.ts), in its order. */
export interface PageActions {
  /** CSS code or stylesheet URLs. */
  readonly styles: readonly string[];
  /** JavaScript code or script URLs. */
  readonly scripts: readonly string[];
  readonly waitForSelector: string | undefined;
  /** Selectors clicked in order. */
  readonly click: readonly string[];
  /** Selectors scrolled into view in order. */
  readonly scroll: readonly string[];
  /** Milliseconds. */
  readonly waitForTimeout: number | undefined;
}

/** How the page is loaded: when it counts as loaded, what is kept out of it, what is done to it before capturing. */
export interface PageLoad {
  readonly waitUntil: readonly WaitUntil[];
  /** Ads, trackers and cookie-consent banners removed before capture. */
  readonly adblock: boolean;
  /** CSS animations and transitions stopped once the page has loaded (`animations=false`). */
  readonly stopAnimations: boolean;
  readonly actions: PageActions;
}

/** The captures wanted, each present only when the answer shows it. */
export interface Captures {
  /** page.content() after loading and page actions. */
  readonly html?: true;
  /** `evaluate` sources of custom data rules, run after the html capture. */
  readonly evaluate?: readonly string[];
  readonly screenshot?: ScreenshotOptions;
  readonly pdf?: PdfOptions;
}

export interface RenderRequest {
  readonly url: VettedUrl;
  readonly setup: PageSetup;
  readonly load: PageLoad;
  readonly capture: Captures;
  readonly budget: Budget;
  /** The answer's allowance of outbound requests, for what Glance itself fetches (the overlay's background). */
  readonly outbound?: Outbound | undefined;
}

export interface RenderResult {
  url: string;
  statusCode: number | null;
  headers: Record<string, string>;
  redirects: Redirect[];
  /** page.content() after loading and page actions, when captured. */
  html?: string;
  /** Per `capture.evaluate` source, its JSON result (undefined when it gave none). */
  evaluated?: Map<string, unknown>;
  screenshot?: Screenshot;
  pdf?: { body: Buffer };
  /** What the page asked for and the address rules refused (URLs, or host:port for https/wss tunnels). */
  refused: string[];
  /** Milliseconds: queue, launch, open, navigate, actions, capture (with an overlay: screenshot, overlay, capture). */
  timings: Record<string, number>;
}

export interface LighthouseRequest {
  readonly url: VettedUrl;
  /** The page as a render of the same request would be set up (device, headers, page settings); no adblock. */
  readonly setup: PageSetup;
  readonly lighthouse: LighthouseOptions;
  /** The report's budget (the pipeline's cap for Lighthouse, within the request's). */
  readonly budget: Budget;
}
