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
  readonly elements: Element[] = [];
  private readonly byTags = new Map<string, readonly Element[]>();

  add(element: Element): void {
    this.elements.push(element);
  }

  /** The elements with one of `tags`, in document order. */
  withTags(tags: readonly string[]): readonly Element[] {
    const key = tags.join(' ');
    let found = this.byTags.get(key);
    if (!found) {
      found = tags.length === 1 ? this.elements.filter((element) => element.name === tags[0]) : this.elements.filter((element) => tags.includes(element.name));
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
