/**
 * A document's elements listed once, in the order css-select visits them from the document (pre-order, the
 * contents of `<template>` skipped, as it does for HTML), and by tag name. The rules' DOM never changes once
 * built, so selectors from the document test these lists instead of walking every node of the page again
 * (lib/rules/select.ts). DocumentBuilder fills the list while it parses; any other document is listed on first use.
 */
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';

export class ElementIndex {
  readonly elements: Element[] = [];
  private readonly byTag = new Map<string, Element[]>();

  add(element: Element): void {
    const named = this.byTag.get(element.name);
    if (named) named.push(element);
    else this.byTag.set(element.name, [element]);
    this.elements.push(element);
  }

  /** The elements with one of `tags`, in document order. */
  withTags(tags: readonly string[]): readonly Element[] {
    if (tags.length === 1) return this.byTag.get(tags[0]!) ?? [];
    const wanted = new Set(tags);
    return this.elements.filter((element) => wanted.has(element.name));
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
