/**
 * `insights.technologies` as `data.insights = { technologies }` (lib/insights), matched in a worker (lib/work/): a
 * few hundred regular expressions over what the page's author wrote, within the request's budget.
 */
import { boundedHtml, boundedMeta } from '../../insights/signals.ts';
import { ANSWER_RESERVE_MS } from '../../time/limits.ts';
import type { LoadedPage } from '../../fetch/document.ts';
import type { Step } from '../context.ts';
import { parsedPage } from '../parsed.ts';

export const insights: Step<{ page: LoadedPage | undefined }> = {
  name: 'insights',
  reads: ['page'],
  writes: ['data.insights'],
  wants: ({ wanted, page }) => (wanted.technologies ? { page } : undefined),
  async run(ctx, { page }) {
    const { deps, budget } = ctx;
    const facts = (await parsedPage(ctx))?.facts;
    await ctx.timings.measure('insights', async () => {
      const technologies =
        page === undefined
          ? []
          : await deps.work.run(
              'technologies',
              {
                url: page.url,
                // Only what the rules read goes to the worker: a 10 MB page is not copied there whole.
                html: page.content.kind === 'html' ? boundedHtml(page.content.html) : '',
                headers: page.headers,
                cookies: page.cookies ?? {},
                scriptSrcs: facts?.scriptSrcs ?? [],
                meta: boundedMeta(facts?.meta ?? new Map()),
              },
              { budget: budget.slice(Infinity, ANSWER_RESERVE_MS) },
            );
      ctx.data.insights = { ...ctx.data.insights, technologies };
    });
  },
};
