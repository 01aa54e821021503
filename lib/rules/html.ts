/**
 * Nodes as HTML, the way a browser's innerHTML and outerHTML write them (the HTML fragment serialisation algorithm):
 * in text only `&`, `<`, `>` and no-break spaces are escaped, in attribute values the same and `"`, empty attributes
 * are written `name=""`, empty elements are never self-closed, and every other character is itself. dom-serializer's
 * default writes each non-ASCII character as a numeric reference instead (`é` → `&#xe9;`): not what a browser answers
 * for the same DOM, a longer string, and one more decoding for the Markdown converter.
 *
 * dom-serializer's own "utf8" mode leaves `<` and `>` in attribute values, which browsers now escape (a
 * `<noscript><p title="</noscript><img onerror=…>">` came out as live markup for a browser reading it again), and writes
 * the text of a `noscript` as it is, though htmlparser2 (scripting off) parsed it as markup and decoded its entities. So
 * the values are escaped here, swapped in for the time of the call and back (the DOM is shared by the request's other
 * rules), and dom-serializer writes them as they are. The text of the elements htmlparser2 reads as raw text (script,
 * style, xmp, iframe, noembed, noframes, plaintext) is kept as written and written back so — but not inside SVG or
 * MathML, where htmlparser2 parses them as markup: a decoded `&lt;/style&gt;` would end the element.
 */
import render from 'dom-serializer';
import { hasChildren, isTag, isText, type AnyNode, type Element, type Text } from 'domhandler';
import { escapeText } from 'entities';

const ESCAPED = /[&<>\u00a0]/;
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

function inForeignContent(element: Element): boolean {
  for (let node = element.parent; node && isTag(node); node = node.parent) if (node.name === 'svg' || node.name === 'math') return true;
  return false;
}

function escapedText(text: Text): string | undefined {
  const { data, parent } = text;
  if (parent && isTag(parent) && RAW_TEXT.has(parent.name) && !inForeignContent(parent)) return undefined;
  return ESCAPED.test(data) ? escapeText(data) : undefined;
}

function escapedAttribs(element: Element): Record<string, string> | undefined {
  const { attribs } = element;
  let escaped: Record<string, string> | undefined;
  for (const name in attribs) {
    if (ESCAPED.test(attribs[name]!)) {
      escaped ??= { ...attribs };
      escaped[name] = escapeText(attribs[name]!);
    }
  }
  return escaped;
}

/**
 * HTML for the Markdown converter, never answered: dom-serializer's "utf8" mode in one pass (toHtml walks the nodes
 * first, twice the time; Wikipedia's main content: 10 ms, against 16 with the default encoding). What toHtml guards
 * against cannot reach the converter: noscript and SVG, where that mode and htmlparser2 disagree, are never prose and
 * are left out first (lib/rules/main-content.ts), and the converter reads a `<` inside a quoted value as part of it
 * (its Markdown of the 167 corpus pages is the same from either).
 */
export const converterHtml = (nodes: AnyNode | AnyNode[]): string => render(nodes, { encodeEntities: 'utf8' });

export function toHtml(nodes: AnyNode | AnyNode[]): string {
  const texts: [Text, string][] = [];
  const attribs: [Element, Record<string, string>][] = [];
  const stack: AnyNode[] = Array.isArray(nodes) ? [...nodes] : [nodes];
  try {
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (isText(node)) {
        const escaped = escapedText(node);
        if (escaped !== undefined) {
          texts.push([node, node.data]);
          node.data = escaped;
        }
      } else if (isTag(node)) {
        const escaped = escapedAttribs(node);
        if (escaped) {
          attribs.push([node, node.attribs]);
          node.attribs = escaped;
        }
      }
      if (hasChildren(node)) for (const child of node.children) stack.push(child);
    }
    // Quotes in attribute values are dom-serializer's to escape, even with its own encoding off. An empty SVG element is
    // written `<rect></rect>`, as browsers write it.
    return render(nodes, { encodeEntities: false, emptyAttrs: true, selfClosingTags: false });
  } finally {
    for (const [text, data] of texts) text.data = data;
    for (const [element, original] of attribs) element.attribs = original;
  }
}
