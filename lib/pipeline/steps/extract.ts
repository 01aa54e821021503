/** Extracts the wanted metadata fields from what was loaded, and the candidate URLs of each media field. */
import type { Context, Step } from '../context.ts';
import { buildData } from '../page-data.ts';
import { parsedPage } from '../parsed.ts';

export const extract: Step = {
  name: 'extract',
  wants: ({ page, wanted }) => page !== undefined && wanted.fields.length > 0,
  run: extractInto,
};

export async function extractInto(ctx: Context): Promise<void> {
  const { page, wanted, options, timings } = ctx;
  if (!page) return;
  const squareLogo = options.meta !== false && options.meta.squareLogo;
  const built = await timings.measure('extract', async () =>
    buildData(page, (await parsedPage(ctx))?.facts, wanted.fields, options.ping, { squareLogo }),
  );
  Object.assign(ctx.data, built.data);
  ctx.media = built.media;
}
