/** Puts the screenshot and PDF in storage; their media objects are complete without a ping (docs/CONTRACT.md §4). */
import { mediaFromStored } from '../../media/object.ts';
import { mimeOf } from '../../media/types.ts';
import type { Context, Step } from '../context.ts';

export const store: Step<Context['captures']> = {
  name: 'store',
  reads: ['captures'],
  writes: ['data.captures'],
  wants: ({ captures }) => (captures.screenshot !== undefined || captures.pdf !== undefined ? captures : undefined),
  async run(ctx, captures) {
    const { budget, deps, data, options } = ctx;
    await ctx.timings.measure('store', async () => {
      const signal = budget.signal();
      const { screenshot, pdf } = captures;
      const [shot, document] = await Promise.all([
        screenshot && deps.storage.put(screenshot.body, mimeOf(screenshot.type)!, signal, options.filename),
        pdf && deps.storage.put(pdf.body, mimeOf('pdf')!, signal, options.filename),
      ]);
      if (screenshot && shot) data.screenshot = { ...mediaFromStored(shot), width: screenshot.width, height: screenshot.height };
      if (document) data.pdf = mediaFromStored(document);
    });
  },
};
