/**
 * What `attr` reads from a match (https://microlink.io/docs/mql/data/attr): an attribute, or one of the special
 * values. The scope is an element, or the whole document when the rule has no selector.
 */
import { isDocument, isTag, type AnyNode, type Document, type Element } from 'domhandler';
import { converterHtml, toHtml } from './html.ts';
import { markdownOf, toMarkdown } from './markdown.ts';
import { proseOf, readPage } from './page.ts';
import { all, first } from './select.ts';
import { visibleText } from './text.ts';
import { parseJson } from '../json.ts';

/** The attr values that are not attribute names. */
export const SPECIAL_ATTRS = ['html', 'outerHTML', 'text', 'markdown', 'val', 'tagName', 'nodeName', 'json'] as const;

export interface Source {
  readonly document: Document;
  /** The page's base for relative URLs (`<base href>` or the final URL). */
  readonly base: string;
  /** The response body when it is not HTML (a JSON API, a text file): what `attr=json` parses. */
  readonly body: string | undefined;
}

const childrenOf = (node: AnyNode): AnyNode[] => ('children' in node ? node.children : []);

/** An element's form value, as jQuery's `.val()` reads it from markup. */
function formValue(element: Element): string | undefined {
  switch (element.name) {
    case 'textarea':
      return visibleText(element);
    case 'select': {
      const option = first('option[selected]', element) ?? first('option', element);
      return option ? (option.attribs['value'] ?? visibleText(option)) : undefined;
    }
    case 'option':
      return element.attribs['value'] ?? visibleText(element);
    default:
      return element.attribs['value'];
  }
}

/** The whole page's Markdown (lib/rules/page.ts: what it leaves out, the same as the whole page's text). */
function pageMarkdown({ document, base }: Source): string {
  const maths = all('math', document, Number.MAX_SAFE_INTEGER);
  return readPage(document, (page) => markdownOf(converterHtml(page, maths), base));
}

/** The raw value of `attr` at `node`: a string, or for `json` any JSON value; undefined when there is none. */
export function readAttr(node: AnyNode, attr: string, source: Source): unknown {
  const whole = isDocument(node);
  switch (attr) {
    case 'html':
      return toHtml(childrenOf(node));
    case 'outerHTML':
      return toHtml(node);
    case 'text':
      return whole ? readPage(source.document, visibleText) : visibleText(node);
    case 'markdown':
      return whole ? pageMarkdown(source) : toMarkdown(proseOf(childrenOf(node)), source.base);
    case 'json':
      // A JSON target's body; in a browser it is shown as text in the page (Chromium wraps it in a <pre>).
      return parseJson(whole && source.body !== undefined ? source.body : visibleText(node));
    default: {
      const element = whole ? first('html', node) : isTag(node) ? node : null;
      if (!element) return undefined;
      if (attr === 'val') return formValue(element);
      if (attr === 'tagName' || attr === 'nodeName') return element.name.toUpperCase();
      return element.attribs[attr.toLowerCase()];
    }
  }
}
