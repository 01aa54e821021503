/**
 * `insights.lighthouse` as a job of a worker pool of its own (lib/work/; app.ts makes it): Lighthouse's import, the
 * protocol traffic of its gathering and the computation of its audits over the page's trace — seconds of CPU in
 * stretches of up to a second — run in the worker's thread, with a browser of the worker's own, so the event loop that
 * answers everyone never waits on them, and the report's deadline ends the worker, its browser and the audit with it.
 *
 * The worker's renderer is the service's own code (lib/browser/index.ts) under the same configuration, read again
 * from the environment it came from; it makes no spare pages. A resolver the service was given (tests resolve names of
 * their own) is asked across the threads.
 */
import { loadConfig, type Env } from '../config.ts';
import type { Resolver } from '../guard/lookup.ts';
import type { VettedUrl } from '../guard/policy.ts';
import type { LighthouseOptions } from '../query/options.ts';
import { Budget } from '../time/budget.ts';
import { WorkPool } from '../work/pool.ts';
import { createRenderer, type Renderer } from './index.ts';
import { load, type LighthouseReport } from './lighthouse.ts';
import type { PageSetup } from './page.ts';

export interface LighthouseJob {
  /** The service's environment (Config.env). */
  readonly env: Env;
  /** Chromium flags the service adds to its configuration's (tests keep Chromium's DNS on the machine). */
  readonly extraArgs: readonly string[];
  /** Vetted by the service before the job was sent. */
  readonly url: string;
  /** The audited page's setup (lib/pipeline/render-request.ts). */
  readonly setup: PageSetup;
  readonly lighthouse: LighthouseOptions;
  /** Epoch ms: the report's end. */
  readonly deadline: number;
  /** Whether the service resolves names with a resolver of its own, asked through `calls.resolve`. */
  readonly ownResolver: boolean;
}

/** The worker's one renderer, made by its first report and kept for the next (the worker ends with its deadline). */
let renderer: Renderer | undefined;

export interface LighthouseHost {
  /** The service's resolver, across the threads. */
  resolve: Resolver;
  /** Runs `cleanup` before the worker is ended. */
  onClose(cleanup: () => Promise<void>): void;
}

export async function lighthouseJob(job: LighthouseJob, host: LighthouseHost): Promise<LighthouseReport> {
  if (!renderer) {
    const made = createRenderer({
      config: loadConfig({ ...job.env, GLANCE_BROWSER_SPARE: 'false' }),
      // Never used: a report's page runs without adblock, the only use the renderer has for workers.
      work: new WorkPool({ size: 1 }),
      resolver: job.ownResolver ? host.resolve : undefined,
      extraArgs: job.extraArgs,
    });
    // A browser whose worker thread is ended outright exits with its pipe, but nobody is left to reap it: the worker
    // is told first, and its browser is killed and reaped from here (the report it ran was already answered).
    host.onClose(() => made.kill());
    renderer = made;
  }
  const url = new URL(job.url) as VettedUrl;
  return renderer.lighthouse({ url, setup: job.setup, lighthouse: job.lighthouse, budget: Budget.until(job.deadline) });
}

/** What a prepared worker loads before its first report: Lighthouse itself. */
export const preload = load;
