/**
 * Loads the target in Chromium when the answer needs a browser: a screenshot or PDF it shows, `prerender=true`,
 * or a custom rule's `evaluate`. The rendered DOM is kept for extraction only when fields are wanted; the overlay, when
 * asked for, is drawn inside the same page work.
 */
import type { LoadedPage } from '../../fetch/document.ts';
import { ANSWER_RESERVE_MS } from '../../time/limits.ts';
import { needsHtml, type Context, type Step } from '../context.ts';
import { renderRequest } from '../render-request.ts';

/** The first step: nothing is loaded before it. */
export const render: Step<true> = {
  name: 'render',
  reads: [],
  writes: ['page', 'mode', 'evaluated', 'captures'],
  wants: ({ wanted, options }) => (wanted.screenshot || wanted.pdf || options.prerender === true || wanted.evaluate.length > 0) || undefined,
  run: async (ctx) => void (await renderPage(ctx, needsHtml(ctx.wanted))),
};

/** Renders the target into the context, answering the page it loaded; also the prerender=auto upgrade of a client-side shell. */
export async function renderPage(ctx: Context, html: boolean): Promise<LoadedPage> {
  const { url, options, budget, timings, wanted, deps } = ctx;
  const request = await renderRequest({
    url,
    options,
    wants: { html, evaluate: wanted.evaluate, screenshot: wanted.screenshot, pdf: wanted.pdf },
    userAgent: deps.config.userAgent,
    budget: budget.slice(Infinity, ANSWER_RESERVE_MS),
    outbound: ctx.outbound,
  });
  const renderer = await timings.measure('launch', deps.renderer);
  const result = await timings.measure('render', () => renderer.render(request));
  // The overlay's share of the render, as a span of its own (docs/parameters.md, Response headers: server-timing).
  if (result.timings['overlay'] !== undefined) timings.add('overlay', result.timings['overlay']);
  ctx.mode = 'prerender';
  ctx.evaluated = result.evaluated;
  ctx.captures = { screenshot: result.screenshot, pdf: result.pdf };
  const { statusCode, headers, redirects } = result;
  ctx.page = { url: result.url, statusCode, headers, redirects, content: { kind: 'html', html: result.html ?? '' } };
  ctx.parsed = undefined;
  return ctx.page;
}
