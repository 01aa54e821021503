/**
 * A document's elements listed once, in the order css-select visits them from the document (pre-order, the
 * contents of `<template>` skipped, as it does for HTML), and by tag name. The rules' DOM never changes once
 * built, so selectors from the document test these lists instead of walking every node of the page again
 * (lib/rules/select.ts). DocumentBuilder fills the list while it parses; any other document is listed on first use.
 * The lists by tag are made when a selector first asks for them, from a code of each element's tag name kept beside
 * the list (cheaper than filing every element under its tag while the page is parsed).
 */
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';

/** Set in the codes of names that tagCode does not spell out. */
const INEXACT = 1 << 28;

/**
 * A small integer for a tag name. Names of up to four ASCII characters (`a`, `p`, `h2`, `img`, `meta`, `link`,
 * `time`: most that rules name) are spelled out, seven bits a character, so equal codes are equal names; longer ones
 * get a code from their length and first and last characters, and a match on it is checked by name.
 */
function tagCode(name: string): number {
  if (name.length <= 4) {
    let code = 0;
    for (let i = 0; i < name.length; i++) {
      const character = name.charCodeAt(i);
      if (character === 0 || character >= 128) return inexactCode(name);
      code = (code << 7) | character;
    }
    return code;
  }
  return inexactCode(name);
}

const inexactCode = (name: string): number =>
  INEXACT | ((name.charCodeAt(0) & 0x7f) << 20) | ((name.charCodeAt(name.length - 1) & 0x7f) << 13) | (name.length & 0x1fff);

export class ElementIndex {
  private readonly list: Element[] = [];
  /**
   * Each element's tagCode, at the same index: a search by tag reads this list of integers, not the elements.
   * Reading the name of every element of a page that was just built cost a cache miss or two per element, and made
   * the first search by tag on a fresh page four times as long as the next (issue 12).
   */
  private readonly codes: number[] = [];
  private readonly byTags = new Map<string, readonly Element[]>();

  add(element: Element): void {
    this.list.push(element);
    this.codes.push(tagCode(element.name));
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
      const { list, codes } = this;
      const wanted = tags.map(tagCode);
      const exact = wanted.every((code) => code < INEXACT);
      for (let i = 0; i < codes.length; i++) {
        const code = codes[i]!;
        if ((code === wanted[0] || (wanted.length > 1 && wanted.includes(code))) && (exact || tags.includes(list[i]!.name.toLowerCase()))) matches.push(list[i]!);
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
