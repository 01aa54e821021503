/**
 * `insights.technologies` as `data.insights = { technologies }` (lib/insights). The engine and its rules are
 * loaded on the first request that asks, so the metadata path never reads them.
 */
import type { Step } from '../context.ts';
import { parsedPage } from '../parsed.ts';

export const insights: Step = {
  name: 'insights',
  wants: ({ wanted }) => wanted.technologies,
  async run(ctx) {
    const { page } = ctx;
    const facts = (await parsedPage(ctx))?.facts;
    await ctx.timings.measure('insights', async () => {
      const { detectTechnologies } = await import('../../insights/technologies.ts');
      const technologies =
        page === undefined
          ? []
          : await detectTechnologies({
              url: page.url,
              html: page.content.kind === 'html' ? page.content.html : '',
              headers: page.headers,
              cookies: page.cookies ?? {},
              scriptSrcs: facts?.scriptSrcs ?? [],
              meta: facts?.meta ?? new Map(),
            });
      ctx.data.insights = { ...ctx.data.insights, technologies };
    });
  },
};
