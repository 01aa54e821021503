/**
 * `attr=markdown` with Turndown (mixmark-io/turndown): the most used HTML→Markdown converter, maintained, with
 * CommonMark-safe escaping. Links and images are written absolute, resolved against the page's base, so the
 * Markdown stands on its own away from the page.
 */
import TurndownService from 'turndown';
import render from 'dom-serializer';
import type { AnyNode } from 'domhandler';
import { resolveUrl } from '../extract/url.ts';

/** What the rules read of Turndown's DOM nodes (its types assume the browser's DOM library). */
interface MarkupElement {
  getAttribute(name: string): string | null;
}

/** The base of the conversion running now: turndown is synchronous, so one module-level value is safe. */
let base = '';

function createConverter(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'head', 'select', 'input', 'textarea', 'button']);
  const absolute = (raw: string | null): string => (raw === null ? '' : (resolveUrl(raw, base) ?? raw.trim()));
  service.addRule('absoluteLink', {
    filter: (node) => node.nodeName === 'A' && Boolean(node.getAttribute('href')),
    replacement: (content, node) => {
      const element = node as unknown as MarkupElement;
      const href = absolute(element.getAttribute('href')).replace(/([()])/g, '\\$1');
      const title = element.getAttribute('title');
      return `[${content}](${href}${title ? ` "${title.replace(/"/g, '\\"')}"` : ''})`;
    },
  });
  service.addRule('absoluteImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as unknown as MarkupElement;
      const src = element.getAttribute('src');
      if (!src) return '';
      const alt = (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      const title = element.getAttribute('title');
      return `![${alt}](${absolute(src)}${title ? ` "${title.replace(/"/g, '\\"')}"` : ''})`;
    },
  });
  return service;
}

/** Made on the first conversion, not at import: the import is on every request's cold path, Markdown is not. */
let converter: TurndownService | undefined;

/** Markdown of the nodes given (an element's children, or a whole main-content copy). */
export function toMarkdown(nodes: AnyNode | AnyNode[], pageBase: string): string {
  base = pageBase;
  converter ??= createConverter();
  return converter.turndown(render(nodes)).trim();
}
