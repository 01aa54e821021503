/**
 * The page's main content, for whole-page `attr=markdown` (and `text`): what a reader came for, without the
 * navigation chrome around it.
 *
 * Why a landmark heuristic and not @mozilla/readability: Readability needs a full W3C DOM (a second parse into
 * jsdom or linkedom), makes several scoring passes and answers nothing at all for pages that are not articles
 * (a home page, a product list, example.com), where Microlink's whole-page Markdown still has content. The
 * landmarks pages declare for assistive technology (`itemprop=articleBody`, `<article>`, `<main>`,
 * `role=main`) say the same thing for most pages, are read from the DOM the rules already have in one linear
 * walk, and give the same answer for the fetched and the rendered DOM. Without any landmark the whole body is
 * kept; either way navigation, banners, sidebars, footers, forms and dialogs are left out of its HTML.
 */
import { cloneNode, hasChildren, isTag, isText, type AnyNode, type ChildNode, type Document, type Element, type ParentNode } from 'domhandler';
import { removeElement } from 'domutils';
import { converterHtml } from './html.ts';
import { all, first } from './select.ts';

const LANDMARKS = ['[itemprop="articleBody"]', 'article', 'main', '[role="main"]'];
/**
 * Elements that are never prose, wherever they are: code, controls, drawings and embedded documents. Markdown leaves
 * them out (their text would read as sentences: an SVG's labels, a select's options). `<head>` and `<frameset>`
 * matter when a page has no `<body>` and the whole document is kept: a head is never content (its `<title>` would
 * become the first line of text), and a frameset holds other documents, never text of its own.
 */
const NOT_PROSE = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'select', 'textarea', 'button', 'head', 'frameset',
]);
const CHROME_TAGS = new Set([...NOT_PROSE, 'nav', 'aside', 'footer', 'form', 'dialog']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'complementary', 'contentinfo', 'search', 'dialog']);
/** `<header>` is chrome at page level, but an article's own header carries its title. */
const KEEPS_HEADER = new Set(['article', 'main', 'section']);

/** The text length of a landmark decides between several `<article>`s: the longest is the story. */
function longest(elements: Element[]): Element | undefined {
  let best: Element | undefined;
  let bestLength = -1;
  for (const element of elements) {
    const length = textLength(element);
    if (length > bestLength) {
      best = element;
      bestLength = length;
    }
  }
  return best;
}

/** Whether `node` holds any text but whitespace: textLength(node) > 0, without reading all of a large landmark. */
function hasText(node: AnyNode): boolean {
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) {
      if (current.data.trim().length > 0) return true;
    } else if (hasChildren(current)) {
      stack.push(...current.children);
    }
  }
  return false;
}

function textLength(node: AnyNode): number {
  let length = 0;
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) length += current.data.trim().length;
    else if (hasChildren(current)) stack.push(...current.children);
  }
  return length;
}

function landmark(document: Document): Element | undefined {
  for (const selector of LANDMARKS) {
    const found = selector === 'article' ? longest(all(selector, document, 50)) : first(selector, document) ?? undefined;
    if (found && hasText(found)) return found;
  }
  return first('body', document) ?? undefined;
}

/** Whether `element`, below `root`, is chrome; a `<header>` is an article's own only inside `root`. */
function isChrome(element: Element, root: AnyNode): boolean {
  if (CHROME_TAGS.has(element.name)) return true;
  const role = element.attribs['role'];
  if (role && CHROME_ROLES.has(role.trim().toLowerCase())) return true;
  if (element.attribs['aria-hidden'] === 'true' || element.attribs['hidden'] !== undefined) return true;
  if (element.name !== 'header') return false;
  for (let parent = element.parent; parent && isTag(parent); parent = parent.parent) {
    if (KEEPS_HEADER.has(parent.name)) return false;
    if (parent === root) break;
  }
  return true;
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

/**
 * The HTML of the main content without the chrome. Rather than a copy of the content with the chrome removed (a deep
 * copy of a large article was a tenth of its Markdown's time), the lists of children that hold chrome are swapped
 * for lists without it while the content is serialised, and swapped back: the page's DOM is left as it was.
 */
export function mainContentHtml(document: Document): string {
  const root = landmark(document) ?? document;
  const swapped: [ParentNode, ChildNode[]][] = [];
  const stack: AnyNode[] = [root];
  try {
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (!hasChildren(current)) continue;
      const { children } = current;
      let kept: ChildNode[] | undefined;
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (isTag(child) && isChrome(child, root)) {
          kept ??= children.slice(0, i);
        } else {
          kept?.push(child);
          stack.push(child);
        }
      }
      if (kept) {
        swapped.push([current, children]);
        current.children = kept;
      }
    }
    return converterHtml(root, all('math', document, Number.MAX_SAFE_INTEGER));
  } finally {
    for (const [parent, children] of swapped) parent.children = children;
  }
}

/** A copy of `nodes` without what is never prose, for an element's Markdown. */
export function proseOf(nodes: AnyNode[]): AnyNode[] {
  return nodes.filter((node) => !(isTag(node) && NOT_PROSE.has(node.name))).map((node) => strip(cloneNode(node, true), (element) => NOT_PROSE.has(element.name)));
}
