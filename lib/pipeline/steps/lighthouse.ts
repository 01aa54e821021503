/**
 * `insights.lighthouse` as `data.insights.lighthouse`: a Lighthouse report of the target, run in a worker of its own
 * with a browser of its own (lib/browser/lighthouse-job.ts), each page request through the address guard, within a
 * budget of its own: at its end the worker, its browser and the audit are stopped. A report up to INLINE_MAX_BYTES is
 * answered inline (the result object for `json`, the text for `html` and `csv`); a larger one is stored like a
 * screenshot and answered as its media object, so answers stay well under Lambda's 6 MB.
 */
import { mediaFromStored } from '../../media/object.ts';
import { ANSWER_RESERVE_MS } from '../../time/limits.ts';
import type { LighthouseOptions } from '../../query/options.ts';
import type { Step } from '../context.ts';
import { pageSetup } from '../render-request.ts';

/** Lighthouse's cap within the request's budget (at most 28 s): loading, auditing and writing the report. */
export const LIGHTHOUSE_MS = 25_000;
/** Time kept after the report for storing a large one. */
const STORE_RESERVE_MS = 1000;
/**
 * The worker's own clock for the report runs this much past the pool's: at the report's end the pool ends the worker
 * with the audit in it, rather than the worker answering ETIMEOUT itself and taking its next report with the abandoned
 * audit still settling inside it.
 */
const WORKER_CLOCK_MARGIN_MS = 1000;
export const INLINE_MAX_BYTES = 3 * 1024 * 1024;

const CONTENT_TYPES = { json: 'application/json', html: 'text/html', csv: 'text/csv' } as const;

/** Loads the target itself, in a browser of its own: it reads nothing earlier steps leave. */
export const lighthouse: Step<LighthouseOptions> = {
  name: 'lighthouse',
  reads: [],
  writes: ['data.insights'],
  wants: ({ wanted }) => wanted.lighthouse || undefined,
  async run(ctx, settings) {
    const { url, options, budget, deps } = ctx;
    await ctx.timings.measure('lighthouse', async () => {
      const reportBudget = budget.slice(LIGHTHOUSE_MS, ANSWER_RESERVE_MS + STORE_RESERVE_MS);
      const { resolver } = deps;
      const job = {
        env: deps.config.env,
        extraArgs: deps.browserArgs,
        url: url.href,
        // Set up as a render of the same request would be.
        setup: await pageSetup(options, deps.config.userAgent, url.origin),
        lighthouse: settings,
        deadline: reportBudget.deadline + WORKER_CLOCK_MARGIN_MS,
        ownResolver: resolver !== undefined,
      };
      const report = await deps.audits.run('lighthouse', job, { budget: reportBudget, calls: resolver ? { resolve: resolver } : {} });
      const body = Buffer.from(report.text);
      const answer =
        body.length <= INLINE_MAX_BYTES
          ? report.output === 'json'
            ? report.result
            : report.text
          : {
              ...mediaFromStored(await deps.storage.put(body, CONTENT_TYPES[report.output], budget.signal(), options.filename)),
              type: report.output,
            };
      ctx.data.insights = { ...ctx.data.insights, lighthouse: answer };
    });
  },
};
