/**
 * `prerender=auto`: a fetched page that is an empty client-side shell (lib/extract/client-shell.ts) is rendered
 * in Chromium after all, and extracted again from the rendered DOM.
 */
import { isClientShell } from '../../extract/client-shell.ts';
import type { LoadedPage } from '../../fetch/document.ts';
import type { Step } from '../context.ts';
import { parsedPage } from '../parsed.ts';
import { extractInto } from './extract.ts';
import { renderPage } from './render.ts';

/** Reads the extracted description; loads and extracts again, as fetch and extract did, when the page is a shell. */
export const clientShell: Step<LoadedPage> = {
  name: 'client-shell',
  reads: ['mode', 'page', 'data.meta'],
  writes: ['page', 'mode', 'evaluated', 'captures', 'data.meta', 'media'],
  redoes: ['fetch', 'extract'],
  wants: ({ mode, options, page }) => (mode === 'fetch' && options.prerender === 'auto' && page?.content.kind === 'html' ? page : undefined),
  async run(ctx) {
    const facts = (await parsedPage(ctx))?.facts;
    if (!facts) return;
    const description = typeof ctx.data.description === 'string' ? ctx.data.description : null;
    if (!isClientShell(facts, description)) return;
    await extractInto(ctx, await renderPage(ctx, true));
  },
};
