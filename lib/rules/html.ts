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
 * style, xmp, iframe, noembed, noframes, plaintext) is kept as written and written back so, where a browser reads it
 * as raw text too (keptRaw).
 */
import render from 'dom-serializer';
import { hasChildren, isTag, isText, type AnyNode, type Element, type Text } from 'domhandler';
import { escapeText } from 'entities';

const ESCAPED = /[&<>\u00a0]/;
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
/** Where HTML parsing resumes inside SVG and MathML (htmlparser2 honours them too). */
const INTEGRATION_POINTS = new Set(['foreignObject', 'desc', 'title', 'mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml']);

/**
 * Whether a browser reading the HTML again reads `element`'s text as the raw text htmlparser2 read: not inside SVG or
 * MathML short of an integration point (htmlparser2 parsed it as markup there, entities decoded), and never inside a
 * noscript, which htmlparser2 reads with scripting off and a browser with scripting on reads as raw text ending at the
 * first `</noscript>` (`<noscript><xmp></noscript><img onerror=…>` put the rest of the page in an xmp's text).
 */
function keptRaw(element: Element): boolean {
  let resumed = false;
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    if (node.name === 'noscript') return false;
    if (resumed) continue;
    if (INTEGRATION_POINTS.has(node.name)) resumed = true;
    else if (node.name === 'svg' || node.name === 'math') return false;
  }
  return true;
}

function escapedText(text: Text): string | undefined {
  const { data, parent } = text;
  if (parent && isTag(parent) && RAW_TEXT.has(parent.name) && keptRaw(parent)) return undefined;
  return ESCAPED.test(data) ? escapeText(data) : undefined;
}

/**
 * dom-serializer writes the elements below a `<math>` with SVG's mixed-case names (`linearGradient`) by renaming them
 * in place: their names are kept here and put back, so the request's later rules still match them.
 */
function namesBelow(maths: Iterable<Element>): [Element, string][] {
  const names: [Element, string][] = [];
  const stack: AnyNode[] = [...maths];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isTag(node)) names.push([node, node.name]);
    if (hasChildren(node)) for (const child of node.children) stack.push(child);
  }
  return names;
}

function restoreNames(names: [Element, string][]): void {
  for (const [element, name] of names) element.name = name;
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
 * are left out first (lib/rules/page.ts), and the converter reads a `<` inside a quoted value as part of it
 * (its Markdown of the 167 corpus pages is the same from either).
 */
export function converterHtml(nodes: AnyNode | AnyNode[], maths: readonly Element[]): string {
  const names = namesBelow(maths);
  try {
    return render(nodes, { encodeEntities: 'utf8' });
  } finally {
    restoreNames(names);
  }
}

export function toHtml(nodes: AnyNode | AnyNode[]): string {
  const texts: [Text, string][] = [];
  const attribs: [Element, Record<string, string>][] = [];
  const maths: Element[] = [];
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
        if (node.name === 'math') maths.push(node);
        const escaped = escapedAttribs(node);
        if (escaped) {
          attribs.push([node, node.attribs]);
          node.attribs = escaped;
        }
      }
      if (hasChildren(node)) for (const child of node.children) stack.push(child);
    }
    const names = namesBelow(maths);
    try {
      // Quotes in attribute values are dom-serializer's to escape, even with its own encoding off. An empty SVG element
      // is written `<rect></rect>`, as browsers write it.
      return render(nodes, { encodeEntities: false, emptyAttrs: true, selfClosingTags: false });
    } finally {
      restoreNames(names);
    }
  } finally {
    for (const [text, data] of texts) text.data = data;
    for (const [element, original] of attribs) element.attribs = original;
  }
}
