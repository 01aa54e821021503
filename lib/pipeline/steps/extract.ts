/** Extracts the wanted metadata fields from what was loaded, and the candidate URLs of each media field. */
import type { Handler } from 'htmlparser2';
import { DocumentBuilder, tee } from '../../rules/dom.ts';
import type { Context, Step } from '../context.ts';
import { buildData } from '../page-data.ts';

export const extract: Step = {
  name: 'extract',
  wants: ({ page, wanted }) => page !== undefined && wanted.fields.length > 0,
  run: extractInto,
};

export async function extractInto(ctx: Context): Promise<void> {
  const { page, wanted, options, timings, budget } = ctx;
  ctx.dom = undefined;
  if (!page) return;
  // Rules to run too: their DOM is built from this same parse (lib/rules/dom.ts).
  const builder = wanted.rules && page.content.kind === 'html' ? new DocumentBuilder() : undefined;
  const parse = builder && ((collector: Partial<Handler>) => tee(collector, builder));
  const built = await timings.measure('extract', () => buildData(page, wanted.fields, options.ping, { signal: budget.signal(), parse }));
  if (builder) ctx.dom = builder.document;
  Object.assign(ctx.data, built.data);
  ctx.media = built.media;
}
