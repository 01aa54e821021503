/**
 * lib/rules/select.ts answers from the document's element lists (lib/rules/elements.ts) what css-select answers by
 * walking the tree: the same elements in the same order, for every kind of selector, on a document built while
 * parsing and on one listed on first use.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { selectAll, selectOne } from 'css-select';
import { parseDocument } from 'htmlparser2';
import type { AnyNode, Element } from 'domhandler';
import { buildDocument, PARSER_OPTIONS } from '../../lib/rules/index.ts';
import { all, first } from '../../lib/rules/select.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>T</title><meta property="og:title" content="OG">
<link rel="canonical" href="/c"><base href="/b/"></head><body>
<header><nav><a href="/n1">n1</a><a href="mailto:x@y.z">mail</a></nav></header>
<main><article><h2 id="a">A</h2><p>one <a href="/p1">p1</a></p><h3>B</h3><p class="x y">two</p>
<template><p>in template</p><a href="/hidden">hidden</a></template>
<section><h2>C</h2><ul><li>1</li><li class="x">2</li><li>3</li></ul><img src="i.png"></section></article></main>
<svg><a href="/svg-link"><title>s</title></a></svg>
<footer><p>foot <a href="/f">f</a></p><h3>D</h3></footer>
<x-aaaa-y>same length, first and last letters</x-aaaa-y><x-bbbb-y>as this one</x-bbbb-y><b>b</b><br><bdi>i</bdi><bdo>o</bdo>
<caption>c</caption><citation>long, like caption</citation></body></html>`;

const SELECTORS = [
  'a', 'A', 'p', 'h2, h3', 'h3, h2', 'article p', 'main > article > p', 'p.x', '.x', '#a', '*', 'li:nth-child(2)',
  'li:first-of-type', 'p:not(.x)', 'section:has(img)', 'a[href^="mailto:"]', 'meta[property="og:title"]',
  'link[rel=canonical]', 'base[href]', 'h2 + p', 'h2 ~ p', 'template', 'template p', ':root', 'html', 'title',
  'li:last-child, p, h2', '[href]', 'p, .x', 'svg a', 'nothing', 'svg title', 'ul > .x', 'h2 ~ *', 'article .x', 'p a, h2',
  'x-aaaa-y', 'x-bbbb-y', 'x-bbbb-y, x-aaaa-y', 'b', 'br', 'bdi, bdo', 'b, x-aaaa-y', 'caption', 'citation', 'x-cccc-y',
];

const ids = (elements: readonly (Element | null)[]): string[] =>
  elements.map((element) => (element ? `${element.name}@${element.startIndex ?? ''}${JSON.stringify(element.attribs)}${element.children.length}` : 'null'));

describe('selectors from the document', () => {
  const documents = {
    'built alone': buildDocument(PAGE),
    'listed on first use': parseDocument(PAGE, PARSER_OPTIONS),
  };
  for (const [name, document] of Object.entries(documents)) {
    test(`${name}: the same matches, in the same order, as css-select`, () => {
      for (const selector of SELECTORS) {
        const expected = selectAll<AnyNode, Element>(selector, document);
        assert.deepEqual(ids(all(selector, document, 1000)), ids(expected), selector);
        assert.deepEqual(ids([first(selector, document)]), ids([selectOne<AnyNode, Element>(selector, document)]), selector);
        assert.deepEqual(ids(all(selector, document, 2)), ids(expected.slice(0, 2)), `${selector} (limit)`);
      }
    });
  }

  test('an element scope still searches only inside it', () => {
    const document = buildDocument(PAGE);
    const footer = first('footer', document)!;
    assert.deepEqual(all('a', footer, 10).map((a) => a.attribs['href']), ['/f']);
    assert.equal(first('h2', footer), null);
  });
});
