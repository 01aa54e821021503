/**
 * The DOM custom rules read: htmlparser2's domhandler tree, built only when a request has rules. With metadata
 * also wanted it is built from the same parse as the page facts (lib/extract/collect.ts takes it as a second
 * handler), so the page is tokenised once.
 *
 * Depth is bounded twice over. Elements nested past MAX_DOM_DEPTH are folded into their ancestor at that depth
 * (their text stays), so css-select's ancestor walks, serialising and Markdown stay linear. And htmlparser2's
 * Parser keeps its open-element stack with `unshift`, quadratic in nesting depth: parsing on its own, the build
 * stops at MAX_PARSE_DEPTH open elements, keeping the document up to that point.
 */
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';
import { DomHandler, type Document } from 'domhandler';
import { MAX_DOM_DEPTH } from './limits.ts';

/** The parser options lib/extract/collect.ts uses too: the same markup gives the same tree. */
export const PARSER_OPTIONS: ParserOptions = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

const MAX_PARSE_DEPTH = 4 * MAX_DOM_DEPTH;

export class DocumentBuilder extends DomHandler {
  private depth = 0;
  private folded = 0;
  private stopper: Parser | undefined;

  /** Stops the parser it is given when the page nests past MAX_PARSE_DEPTH. */
  stopping(parser: Parser): this {
    this.stopper = parser;
    return this;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    if (this.depth >= MAX_DOM_DEPTH) {
      this.folded++;
      if (this.stopper && this.depth + this.folded > MAX_PARSE_DEPTH) this.stopper.pause();
      return;
    }
    this.depth++;
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    if (this.folded > 0) {
      this.folded--;
      return;
    }
    this.depth--;
    super.onclosetag();
  }

  get document(): Document {
    return this.root;
  }
}

/** The page's DOM from its HTML alone. */
export function buildDocument(html: string): Document {
  const builder = new DocumentBuilder();
  const parser = new Parser(builder, PARSER_OPTIONS);
  builder.stopping(parser);
  parser.end(html);
  return builder.document;
}

/** One handler that hands every parser event to each of `handlers`, in order. */
export function tee(...handlers: Partial<Handler>[]): Partial<Handler> {
  const events: (keyof Handler)[] = [
    'onparserinit', 'onreset', 'onend', 'onerror', 'onclosetag', 'onopentagname', 'onattribute', 'onopentag',
    'ontext', 'oncomment', 'oncdatastart', 'oncdataend', 'oncommentend', 'onprocessinginstruction',
  ];
  const out: Partial<Handler> = {};
  for (const event of events) {
    const listeners = handlers.flatMap((handler) => {
      const listener = handler[event] as ((...args: unknown[]) => void) | undefined;
      return listener ? [listener.bind(handler)] : [];
    });
    if (listeners.length > 0) {
      (out as Record<string, (...args: unknown[]) => void>)[event] = (...args) => {
        for (const listener of listeners) listener(...args);
      };
    }
  }
  return out;
}
