/**
 * The DOM custom rules read: htmlparser2's domhandler tree, built only when a request has rules. With metadata
 * also wanted it is built from the same parse as the page facts: the builder hands each event on to the facts
 * collector (lib/extract/collect.ts) with a direct call, so the page is tokenised once and a tee costs nothing
 * per event. The builder also lists the elements as it makes them, for the selectors (lib/rules/elements.ts), and
 * makes elements and texts without domhandler's costly constructors (lib/rules/nodes.ts).
 *
 * Depth is bounded twice over. Elements nested past MAX_DOM_DEPTH are folded into their ancestor at that depth
 * (their text stays), so css-select's ancestor walks, serialising and Markdown stay linear. And htmlparser2's
 * Parser keeps its open-element stack with `unshift`, quadratic in nesting depth: parsing on its own, the build
 * stops at MAX_PARSE_DEPTH open elements, keeping the document up to that point.
 */
import { Parser, type ParserOptions } from 'htmlparser2';
import { DomHandler, isText, type Document, type Element } from 'domhandler';
import type { FactsEvents } from '../extract/collect.ts';
import { ElementIndex, keepIndex } from './elements.ts';
import { MAX_DOM_DEPTH } from './limits.ts';
import { newElement, newText } from './nodes.ts';

/** The parser options lib/extract/collect.ts uses too: the same markup gives the same tree. */
export const PARSER_OPTIONS: ParserOptions = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

const MAX_PARSE_DEPTH = 4 * MAX_DOM_DEPTH;

export class DocumentBuilder extends DomHandler {
  private depth = 0;
  private folded = 0;
  private stopper: Parser | undefined;
  private companion: FactsEvents | undefined;
  private readonly index = new ElementIndex();
  /** Open `<template>` elements: css-select does not look inside them, so neither does the index. */
  private templates = 0;

  /** Stops the parser it is given when the page nests past MAX_PARSE_DEPTH. */
  stopping(parser: Parser): this {
    this.stopper = parser;
    return this;
  }

  /** Hands every event to `companion` too, before the builder's own work. */
  beside(companion: FactsEvents): this {
    this.companion = companion;
    return this;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    this.companion?.onopentag(name, attribs);
    if (this.depth >= MAX_DOM_DEPTH) {
      this.folded++;
      if (this.stopper && this.depth + this.folded > MAX_PARSE_DEPTH) this.stopper.pause();
      return;
    }
    this.depth++;
    const element = newElement(name, attribs);
    this.addNode(element);
    this.tagStack.push(element);
    if (this.templates === 0) this.index.add(element);
    if (name === 'template') this.templates++;
  }

  override ontext(data: string): void {
    this.companion?.ontext(data);
    // Text arrives in pieces (each entity, each slice the parse is fed): a piece joins the text before it, as in
    // DomHandler.
    const last = this.lastNode;
    if (last !== null && isText(last)) {
      last.data += data;
    } else {
      const node = newText(data);
      this.addNode(node);
      this.lastNode = node;
    }
  }

  // htmlparser2 always passes the name; DomHandler's own signature leaves it out.
  override onclosetag(name = ''): void {
    this.companion?.onclosetag(name);
    if (this.folded > 0) {
      this.folded--;
      return;
    }
    this.depth--;
    if ((this.tagStack[this.tagStack.length - 1] as Element).name === 'template') this.templates--;
    super.onclosetag();
  }

  get document(): Document {
    keepIndex(this.root, this.index);
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
