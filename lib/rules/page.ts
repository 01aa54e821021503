/**
 * What `attr=text` and `attr=markdown` read of the whole page, a rule without a selector: Microlink's "whole-page
 * serialization" (https://microlink.io/docs/mql/data/selector: without a selector, `attr` operates on the entire page;
 * its Markdown drops "navigation chrome, scripts, and styles", https://microlink.io/docs/sdk/methods/markdown). Both
 * read the same tree, so that they cover the same content: the document without
 * - what is never prose (NOT_PROSE), wherever it is;
 * - what a browser does not render: `[hidden]`, a `<dialog>` that is not open;
 * - navigation chrome: `<nav>`, and the page's own `<header>` and `<footer>` (the banner and content-info landmarks:
 *   a header or footer inside an article, aside, main, nav or section is that part's own, https://w3c.github.io/html-aam/
 *   §header, §footer), and the elements that declare those landmarks' roles.
 * Every article, section, aside and table of the page stays: the page, not a guess at its main part (a landmark
 * heuristic answered a 50-character teaser for a page of prices and two teasers).
 */
import { cloneNode, hasChildren, isTag, type AnyNode, type ChildNode, type Document, type Element, type ParentNode } from 'domhandler';
import { removeElement } from 'domutils';

/**
 * Elements that are never prose, wherever they are: code, controls, drawings and embedded documents. Markdown leaves
 * them out (their text would read as sentences: an SVG's labels, a select's options). A `<head>` is never content (its
 * `<title>` would become the first line of text), and a frameset holds other documents, never text of its own.
 */
const NOT_PROSE = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'select', 'textarea', 'button', 'head', 'frameset',
]);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo']);
/** The elements whose `<header>` and `<footer>` are their own, not the page's. */
const SECTIONS = new Set(['article', 'aside', 'main', 'nav', 'section']);

const isNotProse = (element: Element): boolean => NOT_PROSE.has(element.name);

function isUnrendered(element: Element): boolean {
  const hidden = element.attribs['hidden'];
  if (hidden !== undefined && hidden.toLowerCase() !== 'until-found') return true;
  return element.name === 'dialog' && element.attribs['open'] === undefined;
}

/** Whether `element` is chrome; `inSection`: whether an article, aside, main, nav or section holds it. */
function isChrome(element: Element, inSection: boolean): boolean {
  if (element.name === 'nav') return true;
  const role = element.attribs['role']?.trim().split(/\s+/)[0]?.toLowerCase();
  if (role && CHROME_ROLES.has(role)) return true;
  return !inSection && (element.name === 'header' || element.name === 'footer');
}

/**
 * `read(document)` with the elements left out of the page taken out of the tree for the time of the call. Rather than
 * a copy of the page without them (a deep copy of a large page was a tenth of its Markdown's time), the lists of
 * children that hold them are swapped for lists without them, and swapped back: the page's DOM is left as it was for
 * the request's other rules. Whether a section holds a node is carried down the walk, so that it stays linear.
 */
export function readPage<T>(document: Document, read: (page: Document) => T): T {
  const swapped: [ParentNode, ChildNode[]][] = [];
  // Two stacks in step rather than one of pairs: no allocation per node of a large page.
  const stack: AnyNode[] = [document];
  const inSections: boolean[] = [false];
  try {
    while (stack.length > 0) {
      const current = stack.pop()!;
      const inSection = inSections.pop()!;
      if (!hasChildren(current)) continue;
      const below = inSection || (isTag(current) && SECTIONS.has(current.name));
      const { children } = current;
      let kept: ChildNode[] | undefined;
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (isTag(child) && (isNotProse(child) || isUnrendered(child) || isChrome(child, below))) {
          kept ??= children.slice(0, i);
        } else {
          kept?.push(child);
          stack.push(child);
          inSections.push(below);
        }
      }
      if (kept) {
        swapped.push([current, children]);
        current.children = kept;
      }
    }
    return read(document);
  } finally {
    for (const [parent, children] of swapped) parent.children = children;
  }
}

/** Removes from `root` (a copy) the elements below it that `drop` picks. */
function strip(root: AnyNode, drop: (element: Element) => boolean): AnyNode {
  const dropped: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isTag(current) && current !== root && drop(current)) dropped.push(current);
    else if (hasChildren(current)) stack.push(...current.children);
  }
  for (const element of dropped) removeElement(element);
  return root;
}

/** A copy of `nodes` without what is never prose, for an element's Markdown. */
export function proseOf(nodes: AnyNode[]): AnyNode[] {
  return nodes.filter((node) => !(isTag(node) && isNotProse(node))).map((node) => strip(cloneNode(node, true), isNotProse));
}
