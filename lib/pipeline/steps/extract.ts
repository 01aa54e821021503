/** Extracts the wanted metadata fields from what was loaded, and the candidate URLs of each media field. */
import type { LoadedPage } from '../../fetch/document.ts';
import type { Context, Step } from '../context.ts';
import { loadDateParsers } from '../../extract/date-words.ts';
import { buildData } from '../page-data.ts';
import { parsedPage } from '../parsed.ts';

export const extract: Step<LoadedPage> = {
  name: 'extract',
  reads: ['page'],
  writes: ['data.meta', 'media'],
  wants: ({ page, wanted }) => (wanted.fields.length > 0 ? page : undefined),
  run: extractInto,
};

/** Extracts from `page`, the context's loaded page. */
export async function extractInto(ctx: Context, page: LoadedPage): Promise<void> {
  const { wanted, options, timings } = ctx;
  const squareLogo = options.meta !== false && options.meta.squareLogo;
  await loadDateParsers();
  const built = await timings.measure('extract', async () =>
    buildData(page, (await parsedPage(ctx))?.facts, wanted.fields, options.ping, { squareLogo }),
  );
  Object.assign(ctx.data, built.data);
  ctx.media = built.media;
}
