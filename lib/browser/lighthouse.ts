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

type LighthouseModule = typeof import('lighthouse');
let module: Promise<LighthouseModule> | undefined;
/**
 * The package, imported once per thread: seconds of CPU, in the worker that runs reports (lighthouse-job.ts), which a
 * prepared service starts with it loaded.
 */
export const load = (): Promise<LighthouseModule> => (module ??= import('lighthouse'));

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

export interface RunLimits {
  /** Lighthouse's own wait for the page's load, at most. */
  readonly loadWaitMs: number;
  /** Lighthouse's own wait for the first paint, at most. */
  readonly paintWaitMs: number;
  /** Aborted when nobody waits for the report any more: a navigation still running stops. */
  readonly signal: AbortSignal;
}

/**
 * Runs the audit in `open`'s page and settles when Lighthouse does: the caller bounds the wait for the answer, but
 * must keep the page open until this settles (audit.ts).
 */
export async function runLighthouse(open: OpenPage, url: URL, options: LighthouseOptions, emulation: Emulation, limits: RunLimits): Promise<LighthouseReport> {
  limits.signal.throwIfAborted();
  const { navigation } = await load();
  const { config, flags } = await configure(options, emulation);
  limits.signal.throwIfAborted();
  open.phase = 'while running Lighthouse';
  // navigation() hands its options to the gather runner, which takes `signal` too; only the typing leaves it out.
  type Navigation = LighthouseModule['navigation'];
  type RunOptions = NonNullable<Parameters<Navigation>[2]> & { signal: AbortSignal };
  const audit = navigation as (page: Parameters<Navigation>[0], url: string, options: RunOptions) => ReturnType<Navigation>;
  const { onlyCategories, onlyAudits, skipAudits, blockedUrlPatterns, maxWaitForLoad, maxWaitForFcp, locale, ...given } = options.settings;
  const done = await audit(open.page, url.href, {
    config,
    flags: {
      ...flags,
      // The caller's settings (lib/query/insights.ts); one left undefined keeps the configuration's.
      ...given,
      onlyCategories: onlyCategories && [...onlyCategories],
      onlyAudits: onlyAudits && [...onlyAudits],
      skipAudits: skipAudits && [...skipAudits],
      blockedUrlPatterns: blockedUrlPatterns && [...blockedUrlPatterns],
      // One of the package's own locales (lib/query/lighthouse-names.ts, checked against it by a test).
      locale: locale as Flags['locale'],
      output: options.output,
      logLevel: 'silent',
      // A caller's wait counts when it is the shorter: the budget's shares bound every report.
      maxWaitForLoad: Math.min(limits.loadWaitMs, maxWaitForLoad ?? Infinity),
      maxWaitForFcp: Math.min(limits.paintWaitMs, maxWaitForFcp ?? Infinity),
      // The context is new and empty; a reset would also clear caches other pages of the browser share.
      disableStorageReset: true,
      // A full-page capture only draws element thumbnails in the HTML report, yet costs about 1.3 s of the budget
      // and is most of a long page's report size (bench/RESULTS.md, lighthouse).
      disableFullPageScreenshot: true,
    },
    signal: limits.signal,
  });
  if (!done) throw new GlanceError('EFATAL', 'Lighthouse gave no result.');
  const { lhr, report } = done;
  // The document itself refused by the address rules (a name that now resolves privately) is the answer, not a
  // report of an error page.
  const refused = lhr.runtimeError ? open.proxy.failureFor(new URL(lhr.finalDisplayedUrl || url.href)) ?? open.proxy.failureFor(url) : undefined;
  if (refused) throw refused.error;
  return { output: options.output, text: Array.isArray(report) ? report.join('\n') : report, result: lhr };
}
