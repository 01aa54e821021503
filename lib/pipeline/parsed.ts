/**
 * The loaded page's HTML, parsed once per page however many steps read its facts: extraction, oEmbed discovery,
 * insights and `prerender=auto`'s check. The one parse of page content on the main thread (docs/architecture.md →
 * "Where CPU work runs"): linear, in slices that give the event loop back, and stopped when the request's budget ends
 * (lib/extract/parse.ts). The page stays in the pieces it was read in (lib/text/pieces.ts).
 * Custom rules parse their own DOM in a worker (lib/rules/job.ts).
 */
import { readFacts } from '../extract/collect.ts';
import type { PageFacts } from '../extract/facts.ts';
import type { Context } from './context.ts';

export interface ParsedPage {
  readonly facts: PageFacts;
}

/** Undefined when what was loaded is not HTML. */
export function parsedPage(ctx: Context): Promise<ParsedPage | undefined> {
  const { page, budget } = ctx;
  if (page?.content.kind !== 'html') return Promise.resolve(undefined);
  return (ctx.parsed ??= readFacts(page.content.html, page.url, { signal: budget.signal() }).then((facts) => ({ facts })));
}
