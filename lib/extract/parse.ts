/**
 * htmlparser2, made safe for hostile pages: linear in the size of the HTML, and never holding the event loop for
 * long.
 *
 * htmlparser2 12's Parser keeps its open elements in an array, innermost first, and runs `unshift`, `shift`,
 * `indexOf` and `includes` over it on every tag, so 300 000 nested `<div>` cost quadratic time (two minutes for
 * 3.3 MB). Like Blink, whose HTML parser stops nesting at 512 (kMaximumHTMLParserDOMTreeDepth in
 * html_construction_site.cc: deeper elements are attached at the cap), an element opened at the cap first closes
 * the innermost one, so it becomes its sibling and the stack never holds more than 512 names; which names are open
 * is counted, so a lookup for a name that is not open (`</x>` repeated, a second `<form>`) costs nothing and one
 * for a name that is open costs no more than the elements it then closes.
 *
 * Parsing is fed in slices, yielding to the event loop between them, so a 10 MB page delays other requests by a
 * few milliseconds at a time rather than by its whole parse; the request's signal ends it early.
 */
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';
import { allPieces, type Text } from '../text/pieces.ts';
import { slices } from '../time/slices.ts';

/** Blink's kMaximumHTMLParserDOMTreeDepth. */
export const MAX_DEPTH = 512;
/** Characters written at a time, between which the event loop may be given back (lib/time/slices.ts). */
const SLICE_CHARS = 4096;

/** The two members of htmlparser2 12's Parser this file relies on; private in its typings. */
interface ParserInternals {
  stack: string[];
  popElement(implied: boolean): void;
}

/**
 * The Parser's own stack array, with the four methods it calls replaced: bounded at MAX_DEPTH, open names counted.
 * A plain array keeps V8's fast paths for shift/unshift (an Array subclass loses them: 100x slower); only own
 * properties are added. tests/extract/parse.test.ts fails if an htmlparser2 upgrade stops using it this way.
 */
function boundStack(parser: ParserInternals): string[] {
  const stack = parser.stack;
  const open = new Map<string, number>();
  const { shift, unshift, indexOf } = Array.prototype;
  return Object.assign(stack, {
    unshift(name: string): number {
      // At the cap the innermost element closes first (popElement shifts it off and tells the handler).
      if (stack.length >= MAX_DEPTH) parser.popElement(true);
      open.set(name, (open.get(name) ?? 0) + 1);
      return unshift.call(stack, name);
    },
    shift(): string | undefined {
      const name = shift.call(stack) as string | undefined;
      if (name !== undefined) {
        const count = (open.get(name) ?? 1) - 1;
        if (count === 0) open.delete(name);
        else open.set(name, count);
      }
      return name;
    },
    indexOf: (name: string): number => (open.has(name) ? indexOf.call(stack, name) : -1),
    includes: (name: string): boolean => open.has(name),
  });
}

/** An htmlparser2 Parser whose work per tag is bounded (see above). */
export function boundedParser(handler: Partial<Handler>, options: ParserOptions): Parser {
  const parser = new Parser(handler, options);
  const internals = parser as unknown as ParserInternals;
  if (!Array.isArray(internals.stack) || internals.stack.length > 0 || typeof internals.popElement !== 'function') {
    throw new Error('htmlparser2 changed its Parser internals: lib/extract/parse.ts needs updating');
  }
  boundStack(internals);
  return parser;
}

export interface FeedOptions {
  /** Aborts the parse between slices. */
  signal?: AbortSignal | undefined;
}

/**
 * Writes `html` into `parser` slice by slice, giving the event loop back between them (lib/time/slices.ts). The
 * parser reads across the bounds of the pieces it is given, so a page in pieces is never joined.
 */
export async function feed(parser: Parser, html: Text, { signal }: FeedOptions = {}): Promise<void> {
  const pause = slices(signal);
  for (const piece of allPieces(html, SLICE_CHARS)) {
    parser.write(piece);
    await pause();
  }
  parser.end();
}
