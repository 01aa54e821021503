/**
 * The loaded page's HTML, parsed once per page however many steps read it: extraction, oEmbed discovery and
 * insights read its facts, custom rules its DOM (built from the same tokens only when the request has rules).
 * Parsed in slices that give the event loop back, and stopped when the request's budget ends (lib/extract/parse.ts).
 */
import type { Document } from 'domhandler';
import { readFacts } from '../extract/collect.ts';
import type { PageFacts } from '../extract/facts.ts';
import { DocumentBuilder } from '../rules/dom.ts';
import type { Context } from './context.ts';

export interface ParsedPage {
  readonly facts: PageFacts;
  /** The DOM custom rules query; undefined when the request has none. */
  readonly dom: Document | undefined;
}

/** Undefined when what was loaded is not HTML. */
export function parsedPage(ctx: Context): Promise<ParsedPage | undefined> {
  const { page, wanted, budget } = ctx;
  if (page?.content.kind !== 'html') return Promise.resolve(undefined);
  return (ctx.parsed ??= parse(page.content.html, page.url, wanted.rules !== undefined, budget.signal()));
}

async function parse(html: string, url: string, withDom: boolean, signal: AbortSignal): Promise<ParsedPage> {
  const builder = withDom ? new DocumentBuilder() : undefined;
  const facts = await readFacts(html, url, { signal }, builder && ((collector) => builder.beside(collector)));
  return { facts, dom: builder?.document };
}
