/**
 * A document's elements listed once, in the order css-select visits them from the document (pre-order, the
 * contents of `<template>` skipped, as it does for HTML), and by tag name. The rules' DOM never changes once
 * built, so selectors from the document test these lists instead of walking every node of the page again
 * (lib/rules/select.ts). DocumentBuilder fills the list while it parses; any other document is listed on first use.
 * The lists by tag are made when a selector first asks for them: a page's elements are compared with the few tags
 * rules name rather than every element being filed under its own while the page is parsed.
 */
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';

export class ElementIndex {
  private readonly list: Element[] = [];
  /** Each element's tag name, at the same index: a search by tag reads this list, not the elements. */
  private readonly names: string[] = [];
  /** One string per tag name of the document (ElementIndex.name). */
  private readonly tagNames = new Map<string, string>();
  private readonly byTags = new Map<string, readonly Element[]>();

  /**
   * The document's one string for the tag name `name`, which the builder gives its element. A search by tag then
   * compares a hundred or so strings that stay in the processor's cache, where it would read the name of each
   * element of a page that was just built, one cache miss each: on a freshly parsed page the first search by tag
   * cost four times the next (bench/rules.ts, issue 12). The page's elements also share those strings.
   */
  name(name: string): string {
    const known = this.tagNames.get(name);
    if (known !== undefined) return known;
    this.tagNames.set(name, name);
    return name;
  }

  add(element: Element): void {
    this.list.push(element);
    this.names.push(element.name);
  }

  /** Every element, in document order. */
  get elements(): readonly Element[] {
    return this.list;
  }

  /** The elements with one of `tags`, in document order. */
  withTags(tags: readonly string[]): readonly Element[] {
    const key = tags.join(' ');
    let found = this.byTags.get(key);
    if (!found) {
      const matches: Element[] = [];
      const { list: elements, names } = this;
      if (tags.length === 1) {
        const tag = tags[0]!;
        for (let i = 0; i < names.length; i++) if (names[i] === tag) matches.push(elements[i]!);
      } else {
        for (let i = 0; i < names.length; i++) if (tags.includes(names[i]!)) matches.push(elements[i]!);
      }
      found = matches;
      this.byTags.set(key, found);
    }
    return found;
  }
}

const indexes = new WeakMap<Document, ElementIndex>();

/** Records the index a builder made while parsing `document`. */
export function keepIndex(document: Document, index: ElementIndex): void {
  indexes.set(document, index);
}

export function elementIndex(document: Document): ElementIndex {
  let index = indexes.get(document);
  if (!index) {
    index = listElements(document);
    indexes.set(document, index);
  }
  return index;
}

function listElements(document: Document): ElementIndex {
  const index = new ElementIndex();
  const stack: AnyNode[] = [];
  const pushChildren = (children: AnyNode[]): void => {
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  };
  pushChildren(document.children);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    index.add(node);
    if (node.name !== 'template') pushChildren(node.children);
  }
  return index;
}
