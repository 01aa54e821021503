/**
 * The DOM custom rules read: htmlparser2's domhandler tree, built only when a request has rules, in the worker that
 * runs them (lib/rules/job.ts): a parse of its own, beside the main thread's parse into facts, on another core. The
 * builder also lists the elements as it makes them, for the selectors (lib/rules/elements.ts).
 *
 * The tree is the one domhandler's DomHandler builds (tests/rules/dom.test.ts compares them node for node), built
 * for less (issue 12: the DOM was most of what a rules request added to the page's parse): elements and texts are
 * made without domhandler's costly constructors (lib/rules/nodes.ts), and an element's children are gathered on one
 * shared stack and copied out once when it closes, an array of the right size, rather than pushed one by one into
 * arrays that grow to several times that (most elements have one or two children).
 *
 * Depth is bounded twice over. Elements nested past MAX_DOM_DEPTH are folded into their ancestor at that depth
 * (their text stays), so css-select's ancestor walks, serialising and Markdown stay linear. And htmlparser2's
 * Parser keeps its open-element stack with `unshift`, quadratic in nesting depth: parsing on its own, the build
 * stops at MAX_PARSE_DEPTH open elements, keeping the document up to that point.
 */
import { Parser, type Handler, type ParserOptions } from 'htmlparser2';
import { Comment, Document, isComment, isText, ProcessingInstruction, type ChildNode, type DataNode, type Element, type ParentNode } from 'domhandler';
import { ElementIndex, keepIndex } from './elements.ts';
import { MAX_DOM_DEPTH } from './limits.ts';
import { newElement, newText } from './nodes.ts';

/** The parser options lib/extract/collect.ts uses too: the same markup gives the same tree. HTML mode: a CDATA
 *  section is text in SVG and MathML and a comment elsewhere, so the builder never sees `oncdatastart`. */
export const PARSER_OPTIONS: ParserOptions = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

const MAX_PARSE_DEPTH = 4 * MAX_DOM_DEPTH;

type Events = Pick<Handler, 'onopentag' | 'ontext' | 'onclosetag' | 'oncomment' | 'oncommentend' | 'onprocessinginstruction'>;

export class DocumentBuilder implements Events {
  private readonly root = new Document([]);
  private finished = false;
  /** Open elements, the document first. */
  private readonly open: ParentNode[] = [this.root];
  /** The children of every open element, in order; `starts` says where each open element's own begin. */
  private readonly children: ChildNode[] = [];
  private childCount = 0;
  private readonly starts: number[] = [0];
  /** A text or comment the next piece of text or comment joins (DomHandler's `lastNode`). */
  private lastNode: DataNode | null = null;
  private folded = 0;
  private stopper: Parser | undefined;
  private readonly index = new ElementIndex();
  /** Open `<template>` elements: css-select does not look inside them, so neither does the index. */
  private templates = 0;

  /** Stops the parser it is given when the page nests past MAX_PARSE_DEPTH. */
  stopping(parser: Parser): this {
    this.stopper = parser;
    return this;
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    const depth = this.open.length - 1;
    if (depth >= MAX_DOM_DEPTH) {
      this.folded++;
      if (this.stopper && depth + this.folded > MAX_PARSE_DEPTH) this.stopper.pause();
      return;
    }
    const element = newElement(name, attribs);
    this.add(element);
    this.open.push(element);
    this.starts.push(this.childCount);
    if (this.templates === 0) this.index.add(element);
    if (name === 'template') this.templates++;
  }

  ontext(data: string): void {
    // Text arrives in pieces (each entity, each slice the parse is fed): a piece joins the text before it.
    const last = this.lastNode;
    if (last !== null && isText(last)) {
      last.data += data;
    } else {
      const node = newText(data);
      this.add(node);
      this.lastNode = node;
    }
  }

  onclosetag(): void {
    if (this.folded > 0) {
      this.folded--;
      return;
    }
    this.close();
  }

  oncomment(data: string): void {
    const last = this.lastNode;
    if (last !== null && isComment(last)) {
      last.data += data;
    } else {
      const node = new Comment(data);
      this.add(node);
      this.lastNode = node;
    }
  }

  oncommentend(): void {
    this.lastNode = null;
  }

  onprocessinginstruction(name: string, data: string): void {
    this.add(new ProcessingInstruction(name, data));
  }

  get document(): Document {
    if (!this.finished) {
      // A parse stopped early (or not ended) leaves elements open: they keep what they hold so far.
      while (this.open.length > 1) this.close();
      this.root.children = this.children.slice(0, this.childCount);
      keepIndex(this.root, this.index);
      this.finished = true;
    }
    return this.root;
  }

  /** Appends `node` to the innermost open element, linked to its previous sibling. */
  private add(node: ChildNode): void {
    const parent = this.open[this.open.length - 1]!;
    node.parent = parent;
    if (this.childCount > this.starts[this.starts.length - 1]!) {
      const previous = this.children[this.childCount - 1]!;
      node.prev = previous;
      previous.next = node;
    }
    this.children[this.childCount++] = node;
    this.lastNode = null;
  }

  private close(): void {
    this.lastNode = null;
    const element = this.open.pop() as Element;
    const start = this.starts.pop()!;
    if (this.childCount > start) {
      element.children = this.children.slice(start, this.childCount);
      this.childCount = start;
    }
    if (element.name === 'template') this.templates--;
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
