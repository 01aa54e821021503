/**
 * `insights.lighthouse`: Google's Lighthouse run on a page Glance opened (lib/browser/page.ts), so every request the
 * audit makes — the navigation, subresources, the robots.txt and source-map fetches it does through the page —
 * leaves through that page's context and its guarded proxy. Lighthouse is given the page itself, never a port:
 * with only a port it would connect on its own and open a tab in the default context, which has no proxy.
 *
 * The package is imported on first use only (tens of megabytes of audits and locales): no other request loads it.
 */
import type { Config, Flags, RunnerResult } from 'lighthouse';
import { GlanceError } from '../errors.ts';
import type { LighthouseOptions, LighthouseOutput } from '../query/options.ts';
import type { Budget } from '../time/budget.ts';
import type { Viewport } from './devices.ts';
import type { OpenPage } from './page.ts';

export interface LighthouseReport {
  readonly output: LighthouseOutput;
  /** The report as Lighthouse writes it in `output`'s format. */
  readonly text: string;
  /** The Lighthouse result object (what `json` serialises). */
  readonly result: RunnerResult['lhr'];
}

export interface Emulation {
  readonly viewport: Viewport;
  readonly userAgent: string;
}

/** Lighthouse's own waits for `load` and first paint, at most, so a slow page leaves time for the audits. */
const LOAD_SHARE = 0.5;

type LighthouseModule = typeof import('lighthouse');
let module: Promise<LighthouseModule> | undefined;
const load = (): Promise<LighthouseModule> => (module ??= import('lighthouse'));

/**
 * The configuration: a named preset as Lighthouse defines it (its own screen, user agent and throttling), or,
 * without one, the request's `device` (a report reflects the emulated device, as on Microlink): Lighthouse's mobile
 * or desktop configuration by the device's kind, with the device's screen and user agent.
 */
async function configure(options: LighthouseOptions, emulation: Emulation): Promise<{ config: Config | undefined; flags: Flags }> {
  const { desktopConfig } = await load();
  const { preset } = options;
  if (preset === 'perf') return { config: (await import('lighthouse/core/config/perf-config.js')).default, flags: {} };
  if (preset !== undefined) return { config: preset === 'desktop' ? desktopConfig : undefined, flags: {} };
  const { width, height, deviceScaleFactor, isMobile } = emulation.viewport;
  return {
    config: isMobile ? undefined : desktopConfig,
    flags: {
      formFactor: isMobile ? 'mobile' : 'desktop',
      screenEmulation: { mobile: isMobile, width, height, deviceScaleFactor, disabled: false },
      emulatedUserAgent: emulation.userAgent,
    },
  };
}

/** Runs the audit in `open`'s page and settles within `budget` (ETIMEOUT past it; the caller closes the page). */
export async function runLighthouse(open: OpenPage, url: URL, options: LighthouseOptions, emulation: Emulation, budget: Budget): Promise<LighthouseReport> {
  const { default: lighthouse } = await load();
  const { config, flags } = await configure(options, emulation);
  const loadWait = Math.max(1000, Math.round(budget.remaining() * LOAD_SHARE));
  open.phase = 'while running Lighthouse';
  const run = lighthouse(
    url.href,
    {
      ...flags,
      output: options.output,
      ...(options.onlyCategories ? { onlyCategories: [...options.onlyCategories] } : {}),
      logLevel: 'silent',
      maxWaitForLoad: loadWait,
      maxWaitForFcp: loadWait,
      // The context is new and empty; a reset would also clear caches other pages of the browser share.
      disableStorageReset: true,
      // A full-page capture only draws element thumbnails in the HTML report, yet costs about 1.3 s of the budget
      // and is most of a long page's report size (bench/RESULTS.md, lighthouse).
      disableFullPageScreenshot: true,
    },
    config,
    open.page,
  );
  const limit = budget.remaining();
  const done = await budget.race(run, () => {
    throw new GlanceError('ETIMEOUT', `The Lighthouse report did not finish within its ${Math.round(limit / 1000)} s budget; the page may be too slow or heavy to audit.`);
  });
  if (!done) throw new GlanceError('EFATAL', 'Lighthouse gave no result.');
  const { lhr, report } = done;
  // The document itself refused by the address rules (a name that now resolves privately) is the answer, not a
  // report of an error page.
  const refused = lhr.runtimeError ? open.proxy.failureFor(new URL(lhr.finalDisplayedUrl || url.href)) ?? open.proxy.failureFor(url) : undefined;
  if (refused) throw refused.error;
  return { output: options.output, text: Array.isArray(report) ? report.join('\n') : report, result: lhr };
}
