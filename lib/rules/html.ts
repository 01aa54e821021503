/**
 * Nodes as HTML, the way a browser's innerHTML and outerHTML write them (the HTML fragment serialisation algorithm):
 * in text only `&`, `<`, `>` and no-break spaces are escaped, in attribute values `&`, `"` and no-break spaces, and
 * every other character is itself. dom-serializer's default writes each non-ASCII character as a numeric reference
 * instead (`é` → `&#xe9;`): not what a browser answers for the same DOM, a longer string, and one more decoding for
 * the Markdown converter (Wikipedia's main content: serialised in 10 ms instead of 16). One difference is left:
 * current browsers (Chromium among them) also escape `<` and `>` in attribute values; dom-serializer has no mode for it.
 */
import render from 'dom-serializer';
import type { AnyNode } from 'domhandler';

export const toHtml = (nodes: AnyNode | AnyNode[]): string => render(nodes, { encodeEntities: 'utf8' });
