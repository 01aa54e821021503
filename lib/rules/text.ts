/**
 * `attr=text`: the text a reader sees. Script, style and template contents are not text; block boundaries
 * separate words (`<p>a</p><p>b</p>` is "a b", where textContent would say "ab"); whitespace is collapsed.
 */
import { isTag, isText, type AnyNode } from 'domhandler';

const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'head']);
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'summary', 'table', 'td', 'th', 'tr', 'ul', 'option', 'title',
]);

export function visibleText(node: AnyNode): string {
  const parts: string[] = [];
  // An explicit stack rather than recursion: the DOM is depth-bounded, but a loop costs nothing more.
  const stack: (AnyNode | string)[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (typeof current === 'string') {
      parts.push(current);
    } else if (isText(current)) {
      parts.push(current.data);
    } else if (isTag(current)) {
      if (HIDDEN.has(current.name) && current !== node) continue;
      if (BLOCKS.has(current.name)) {
        parts.push(' ');
        stack.push(' ');
      }
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
    } else if ('children' in current) {
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
    }
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}
