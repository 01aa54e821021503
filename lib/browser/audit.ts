/**
 * A Lighthouse report as a page job: a page of its own, admitted like a render's (admission.ts), and one report at a
 * time per browser on top (Lighthouse's traces and throttling assume it has the browser to itself). The page is set
 * up as for a render, without adblock: the audit measures the page as served.
 *
 * ETIMEOUT when the report does not finish within its budget; the page then stays open until Lighthouse has settled
 * (at most LIGHTHOUSE_SETTLE_MS more), because closing it under a running audit makes Lighthouse's own pending
 * protocol calls reject with nobody to catch them, which ends the process.
 */
import { Budget } from '../time/budget.ts';
import { GlanceError } from '../errors.ts';
import type { Admission } from './admission.ts';
import type { LighthouseReport } from './lighthouse.ts';
import { Limiter } from './limiter.ts';
import type { OpenPage } from './page.ts';
import type { LighthouseRequest } from './request.ts';

/** Reports that may wait for the one running: each takes seconds, so a longer line would only wait to time out. */
const MAX_WAITING_AUDITS = 2;
/** Lighthouse's own wait for the page's load, as a share of the report's budget: the audits need the rest. */
const LIGHTHOUSE_LOAD_SHARE = 0.5;
/** A page that has painted nothing by this share of the budget gets Lighthouse's NO_FCP report, with time to write it. */
const LIGHTHOUSE_PAINT_SHARE = 0.3;
/** How long an abandoned report's page may stay open for Lighthouse to settle (its longest protocol timeout). */
const LIGHTHOUSE_SETTLE_MS = 30_000;

export function lighthouseJobs(admission: Admission): (request: LighthouseRequest) => Promise<LighthouseReport> {
  const audits = new Limiter(1, { maxWaiting: MAX_WAITING_AUDITS });
  return async ({ url, setup, lighthouse, budget }) => {
    const audit = await import('./lighthouse.ts');
    const emulation = { viewport: setup.viewport, userAgent: setup.userAgent };
    const release = await audits.acquire(budget);
    const stop = new AbortController();
    const share = (part: number) => Math.max(1000, Math.round(budget.remaining() * part));
    const limits = { loadWaitMs: share(LIGHTHOUSE_LOAD_SHARE), paintWaitMs: share(LIGHTHOUSE_PAINT_SHARE), signal: stop.signal };
    // Not a slice of `budget`: that one ends with the answer, and the page must outlive it (above).
    const pageBudget = new Budget(budget.remaining() + LIGHTHOUSE_SETTLE_MS);
    const run = (open: OpenPage) => audit.runLighthouse(open, url, lighthouse, emulation, limits);
    const report = admission.onPage(url, budget, setup, run, () => undefined, pageBudget);
    void report.finally(release).catch(() => undefined);
    const limit = budget.remaining();
    return budget.race(report, () => {
      stop.abort();
      throw new GlanceError('ETIMEOUT', `The Lighthouse report did not finish within its ${Math.round(limit / 1000)} s budget; the page may be too slow or heavy to audit.`);
    });
  };
}
