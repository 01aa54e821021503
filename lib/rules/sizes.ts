/**
 * The size of every node's subtree in one linear pass over the rules' DOM, so that what a value would cost, and the
 * least it would hold, are known before it is built (lib/rules/work.ts): a `selectorAll` over nested elements asks
 * for the text or Markdown of subtrees that hold each other, and building each to measure it is quadratic.
 */
import { hasChildren, isDocument, isTag, isText, type AnyNode, type Document } from 'domhandler';
import { readPage } from './page.ts';

/** Elements whose text `attr=text` leaves out below the element it is read from (lib/rules/text.ts). */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'head']);

const isSpace = (code: number): boolean => code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x3000;

function nonSpace(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) count++;
  return count;
}

/** The characters of every text below `root` that are not white space. */
function textChars(root: AnyNode): number {
  let count = 0;
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) count += nonSpace(node.data);
    else if (hasChildren(node)) for (const child of node.children) stack.push(child);
  }
  return count;
}

/** What a node holds by itself: its text, or its tag and attributes as markup. */
function ownSize(node: AnyNode): number {
  if (isText(node)) return node.data.length;
  if (!isTag(node)) return 'data' in node && typeof node.data === 'string' ? node.data.length : 0;
  let size = 2 * node.name.length + 5;
  for (const name in node.attribs) size += name.length + node.attribs[name]!.length + 4;
  return size;
}

export class Sizes {
  /** Characters of the subtree's text and markup: what serialising or walking it reads. */
  readonly #size = new Map<AnyNode, number>();
  /** Characters of its visible text that are not white space: the least its text, HTML or Markdown holds. */
  readonly #visible = new Map<AnyNode, number>();
  /** The whole page's count: what its text holds, without what lib/rules/page.ts leaves out (its HTML holds more). */
  #page: number | undefined;

  constructor(document: Document) {
    const order: AnyNode[] = [];
    const stack: AnyNode[] = [document];
    while (stack.length > 0) {
      const node = stack.pop()!;
      order.push(node);
      if (hasChildren(node)) for (const child of node.children) stack.push(child);
    }
    // Children come after their parent in `order`: backwards, each is complete before it is added to its parent.
    for (let i = order.length - 1; i >= 0; i--) {
      const node = order[i]!;
      const size = (this.#size.get(node) ?? 0) + ownSize(node);
      const visible = (this.#visible.get(node) ?? 0) + (isText(node) ? nonSpace(node.data) : 0);
      this.#size.set(node, size);
      this.#visible.set(node, visible);
      const parent = node.parent;
      if (!parent) continue;
      this.#size.set(parent, (this.#size.get(parent) ?? 0) + size);
      if (!(isTag(node) && HIDDEN.has(node.name))) this.#visible.set(parent, (this.#visible.get(parent) ?? 0) + visible);
    }
  }

  size(node: AnyNode): number {
    return this.#size.get(node) ?? ownSize(node);
  }

  visible(node: AnyNode): number {
    if (isDocument(node)) return (this.#page ??= readPage(node, textChars));
    return this.#visible.get(node) ?? 0;
  }
}
