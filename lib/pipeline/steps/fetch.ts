/** Loads the target with the guarded fetcher when only its HTML is wanted: the fast path, no browser. */
import { loadPage } from '../../fetch/document.ts';
import { ANSWER_RESERVE_MS } from '../../time/limits.ts';
import { workerGuess } from '../../work/charset.ts';
import { needsHtml, type Step } from '../context.ts';

/** Reads `page` to know whether the render step loaded it already. */
export const fetch: Step<true> = {
  name: 'fetch',
  reads: ['page'],
  writes: ['page', 'mode'],
  wants: ({ page, wanted }) => (page === undefined && needsHtml(wanted)) || undefined,
  async run(ctx) {
    const { url, options, budget, deps } = ctx;
    ctx.mode = 'fetch';
    const fetchBudget = budget.slice(Infinity, ANSWER_RESERVE_MS);
    ctx.page = await ctx.timings.measure('fetch', () =>
      loadPage(url, {
        config: deps.config,
        budget: fetchBudget,
        headers: options.headers,
        resolver: deps.resolver,
        outbound: ctx.outbound,
        guess: workerGuess(deps.work, fetchBudget),
        text: ctx.wanted.rules !== undefined,
      }),
    );
  },
};
