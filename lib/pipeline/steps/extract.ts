/** Extracts the wanted metadata fields from what was loaded, and the candidate URLs of each media field. */
import type { Context, Step } from '../context.ts';
import { buildData } from '../page-data.ts';

export const extract: Step = {
  name: 'extract',
  wants: ({ page, wanted }) => page !== undefined && wanted.fields.length > 0,
  run: extractInto,
};

export async function extractInto(ctx: Context): Promise<void> {
  const { page, wanted, options, timings, budget } = ctx;
  if (!page) return;
  const built = await timings.measure('extract', () => buildData(page, wanted.fields, options.ping, budget.signal()));
  Object.assign(ctx.data, built.data);
  ctx.media = built.media;
}
