/**
 * `iframe`: the page's oEmbed embed as `data.iframe = { html, scripts }`, or null (lib/oembed). The module and
 * the provider registry are loaded on the first request that asks, so the metadata path never reads them.
 */
import { ANSWER_RESERVE_MS, OEMBED_MS } from '../../time/limits.ts';
import type { IframeOptions } from '../../query/options.ts';
import type { Step } from '../context.ts';
import { parsedPage } from '../parsed.ts';

export const iframe: Step<IframeOptions> = {
  name: 'iframe',
  reads: ['page'],
  writes: ['data.iframe'],
  wants: ({ wanted, options }) => (wanted.iframe && options.iframe !== false ? options.iframe : undefined),
  async run(ctx, sizes) {
    const { budget, deps, url, page } = ctx;
    await ctx.timings.measure('iframe', async () => {
      const [{ findIframe }, providers] = await Promise.all([import('../../oembed/index.ts'), deps.oembedProviders()]);
      const urls = [...new Set([url.href, ...(page ? [page.url] : [])])];
      ctx.data.iframe = await findIframe(urls, (await parsedPage(ctx))?.facts, sizes, {
        providers,
        policy: deps.config.policy,
        userAgent: deps.config.userAgent,
        resolver: deps.resolver,
        outbound: ctx.outbound,
        budget: budget.slice(OEMBED_MS, ANSWER_RESERVE_MS),
      });
    });
  },
};
