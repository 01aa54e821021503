/**
 * The work a request's rules may do (lib/rules/work.ts): selectors are counted in css-select's steps and a rule past
 * its allowance is EINVALDATA naming it; values cost their subtree's size before they are built; sizes are one linear
 * pass whose visible-text count is a true lower bound of `attr=text`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isTag, type AnyNode } from 'domhandler';
import { nestedText, siblings } from '../../bench/lib/hostile.ts';
import { GlanceError } from '../../lib/errors.ts';
import type { DataRule, DataRules } from '../../lib/query/options.ts';
import { readAttr } from '../../lib/rules/attr.ts';
import { buildDocument, runRules } from '../../lib/rules/index.ts';
import { Sizes } from '../../lib/rules/sizes.ts';
import { visibleText } from '../../lib/rules/text.ts';
import { MAX_RULE_STEPS, MAX_VALUE_WORK, RulesWork } from '../../lib/rules/work.ts';

const rule = (selector: string, attr = 'text', all = false): DataRule => ({ selector: [selector], all, attr: [attr], rules: undefined, type: ['string'], evaluate: undefined });
const noMedia = { media: async () => null };
const run = (rules: DataRules, html: string) => runRules(rules, { document: buildDocument(html), url: 'https://site.test/' }, noMedia);

describe('the work a request\'s rules may do', () => {
  const many = siblings(20_000);

  test('a selector whose cost grows with the square of the page is EINVALDATA naming its rule and selector', async () => {
    for (const selector of ['p:nth-last-child(1000000)', 'p:nth-last-of-type(1000000)']) {
      const error = await run({ x: [rule(selector)] }, many).catch((caught: unknown) => caught);
      assert.ok(error instanceof GlanceError, String(error));
      assert.equal(error.code, 'EINVALDATA');
      assert.match(error.message, /`data\.x`/);
      assert.ok(error.message.includes(selector));
      assert.ok(error.data?.['data.x']);
    }
  });

  test('a nested rule is named by its path', async () => {
    const nested: DataRule = { selector: ['body'], all: false, attr: [], rules: { inner: [rule('p:nth-last-child(1000000)')] }, type: ['string'], evaluate: undefined };
    const error = await run({ outer: [nested] }, many).catch((caught: unknown) => caught);
    assert.ok(error instanceof GlanceError);
    assert.match(error.message, /`data\.outer\.inner`/);
  });

  test('ordinary selectors on the same page are well within the allowance', async () => {
    const values = await run(
      { all: [rule('p', 'text', true)], last: [rule('span')], child: [rule('body > p:nth-child(3)')], has: [rule('body:has(span)', 'tagName')] },
      many,
    );
    assert.equal((values.all as string[]).length, 1000);
    assert.equal(values.last, 'end');
    assert.equal(values.child, 'x');
    assert.equal(values.has, 'BODY');
  });

  test('the allowance is per rule: a costly rule does not spend its siblings\' allowance', async () => {
    const work = new RulesWork({}, buildDocument('<p>x</p>'));
    const a = rule('a');
    const b = rule('b');
    work.steps(a).spend(MAX_RULE_STEPS - 10);
    assert.equal(work.steps(a).left, 10);
    assert.equal(work.steps(b).left, MAX_RULE_STEPS);
  });

  test('values cost their subtree before they are built: past the allowance, no more are read', () => {
    const document = buildDocument(nestedText(1024 * 1024));
    const work = new RulesWork({}, document);
    const body = document.children.find(isTag)!;
    const size = new Sizes(document).size(body);
    let read = 0;
    while (work.mayRead('markdown', body, Infinity)) read++;
    assert.equal(read, Math.floor(MAX_VALUE_WORK / (6 * size)));
    // Attributes cost nothing worth counting, and text is cheaper than Markdown.
    assert.equal(work.mayRead('class', body, Infinity), true);
  });

  test('a value whose visible text alone would not fit the output left is not built', () => {
    const document = buildDocument('<p>twelve chars</p>');
    const work = new RulesWork({}, document);
    const p = (document.children[0] as AnyNode & { name: string });
    assert.equal(work.mayRead('text', p, 10), false);
    assert.equal(work.mayRead('text', p, 11), true);
  });

  test('the whole page\'s visible count is its text\'s, without the chrome: a page that fits without it is read', () => {
    const document = buildDocument(`<body><nav>${'menu '.repeat(100)}</nav><p>twelve chars</p><footer>${'foot '.repeat(100)}</footer></body>`);
    const text = readAttr(document, 'text', { document, base: 'https://site.test/', body: undefined }) as string;
    assert.equal(text, 'twelve chars');
    assert.equal(new Sizes(document).visible(document), 11);
    const work = new RulesWork({}, document);
    assert.equal(work.mayRead('text', document, 10), false);
    assert.equal(work.mayRead('text', document, 11), true);
  });

  test('sizes: the visible count is the text\'s characters but white space, hidden elements left out below', () => {
    const document = buildDocument(
      '<html><head><title>T</title></head><body><div> a b <script>var x</script><p>c&amp;d</p><style>p{}</style></div></body></html>',
    );
    const sizes = new Sizes(document);
    const elements: AnyNode[] = [];
    const walk = (node: AnyNode) => {
      if (isTag(node)) elements.push(node);
      if ('children' in node) for (const child of node.children) walk(child);
    };
    walk(document);
    for (const element of elements) {
      if (isTag(element) && ['script', 'style', 'head', 'title'].includes(element.name)) continue;
      assert.equal(sizes.visible(element), visibleText(element).replace(/\s/g, '').length, (element as { name: string }).name);
    }
    assert.ok(sizes.size(document) >= document.children.length);
  });
});
