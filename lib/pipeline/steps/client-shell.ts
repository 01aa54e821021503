/**
 * `prerender=auto`: a fetched page that is an empty client-side shell (lib/extract/client-shell.ts) is rendered
 * in Chromium after all, and extracted again from the rendered DOM.
 */
import { isClientShell } from '../../extract/client-shell.ts';
import type { Step } from '../context.ts';
import { parsedPage } from '../parsed.ts';
import { extractInto } from './extract.ts';
import { renderPage } from './render.ts';

export const clientShell: Step = {
  name: 'client-shell',
  wants: ({ mode, options, page }) => mode === 'fetch' && options.prerender === 'auto' && page?.content.kind === 'html',
  async run(ctx) {
    const facts = (await parsedPage(ctx))?.facts;
    if (!facts) return;
    const description = typeof ctx.data.description === 'string' ? ctx.data.description : null;
    if (!isClientShell(facts, description)) return;
    await renderPage(ctx, true);
    await extractInto(ctx);
  },
};
