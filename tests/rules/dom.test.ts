/**
 * The rules' DOM (lib/rules/dom.ts, made with lib/rules/nodes.ts) is htmlparser2's own DOM, node for node. What `attr=html`, `outerHTML`, `text` and
 * `markdown` answer must not depend on how the builder makes its nodes; on the corpus pages the
 * serialised page, its visible text and its whole-page Markdown are compared byte for byte.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import render from 'dom-serializer';
import { Element, Text, type AnyNode, type Document } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { readAttr } from '../../lib/rules/attr.ts';
import { newElement, newText } from '../../lib/rules/nodes.ts';
import { visibleText } from '../../lib/rules/text.ts';
import { buildDocument, PARSER_OPTIONS } from '../../lib/rules/index.ts';
import { loadCorpus } from '../helpers/corpus.ts';

const reference = (html: string): Document => parseDocument(html, PARSER_OPTIONS);
const pageMarkdown = (document: Document, base: string): unknown => readAttr(document, 'markdown', { document, base, body: undefined });

interface Shape {
  keys: string[];
  proto: unknown;
  fields: Record<string, unknown>;
  children?: Shape[];
}

/** Every own property of every node (links as the linked node's position), and its prototype. */
function shape(node: AnyNode): Shape {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'children') continue;
    if (key === 'parent' || key === 'prev' || key === 'next') {
      const linked = value as AnyNode | null;
      fields[key] = linked === null ? null : `${linked.type}:${'name' in linked ? linked.name : ''}:${linked.parent?.children.indexOf(linked as never) ?? -1}`;
    } else {
      fields[key] = value;
    }
  }
  const children = 'children' in node ? node.children.map(shape) : undefined;
  return { keys: Object.keys(node), proto: Object.getPrototypeOf(node), fields, ...(children && { children }) };
}

const TRICKY = `<!DOCTYPE html><html><head><title>A &amp; B</title><style>p > a { x: "&amp;" }</style>
<script>if (a < b && c) document.write("<p>")</script><!-- a comment --><script type="application/ld+json">{"a":1}</script>
</head><body class=" x  y " data-empty hidden>
text &lt;&gt; &copy; &#x1F600; &notanentity; <p>one<p>two <b>bold <i>both</b> italic</i></p>
<table><tr><td>cell<td>cell 2</table><template><p>inside</p></template>
<svg viewBox="0 0 1 1"><foreignObject><p>html in svg</p></foreignObject><![CDATA[cdata text]]><clipPath/></svg>
<math><mi>x</mi></math><img src="a.png" alt='quote " inside'><br/><input disabled><select><option selected>o</select>
<textarea><b>not a tag</b></textarea><noscript><img src="n.png"></noscript><Div CLASS="Upper">mixed case</DIV>
<a href="/x?a=1&amp;b=2">link</a></p></span><![CDATA[bogus]]><?php echo 1 ?>trailing</body></html>`;

describe('the rules DOM', () => {
  test('its elements and texts are domhandler nodes with the same prototype and own properties', () => {
    assert.deepEqual(shape(newElement('script', { src: 'a.js' })), shape(new Element('script', { src: 'a.js' })));
    assert.deepEqual(shape(newElement('div', {})), shape(new Element('div', {})));
    assert.deepEqual(shape(newText('t')), shape(new Text('t')));
    assert.ok(newElement('p', {}) instanceof Element);
  });

  test('node for node what htmlparser2 builds', () => {
    const long = `<p>${'a &amp; b '.repeat(5000)}</p>`.repeat(3);
    for (const html of [TRICKY, long, '', 'plain text', '<p>unclosed']) assert.deepEqual(shape(buildDocument(html)), shape(reference(html)));
  });

  test('corpus pages: the same HTML, text and Markdown as from htmlparser2’s DOM', () => {
    const pages = loadCorpus();
    assert.ok(pages.length > 100, `expected the peer corpora, found ${pages.length} pages`);
    for (const page of pages) {
      const built = buildDocument(page.html);
      const expected = reference(page.html);
      const name = `${page.peer}/${page.name}`;
      assert.equal(render(built), render(expected), `${name}: html`);
      assert.equal(visibleText(built), visibleText(expected), `${name}: text`);
      assert.equal(pageMarkdown(built, page.url), pageMarkdown(expected, page.url), `${name}: markdown`);
    }
  });
});
