/**
 * The whole page (lib/rules/page.ts): what `attr=text` and `attr=markdown` read without a selector. Every heading,
 * section, article, aside and table of the page is there; navigation chrome (nav, the page's own header and footer),
 * scripts, styles and what is not rendered are not; and the two cover the same content.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import render from 'dom-serializer';
import { parseQuery } from '../../lib/query/index.ts';
import { readAttr } from '../../lib/rules/attr.ts';
import { buildDocument, runRules } from '../../lib/rules/index.ts';
import { loadCorpus } from '../helpers/corpus.ts';

const SHOP = `<!doctype html><html lang="en"><head><title>Shop title</title><style>.price { color: red }</style>
<script>window.tracking = "script text"</script></head><body>
<header class="site"><a href="/">Brand name</a><nav><a href="/plans">Plans link</a> <a href="/about">About link</a></nav></header>
<div role="navigation"><a href="/skip">Breadcrumb link</a></div>
<main>
<h1>Pricing plans</h1>
<p class="price">Basic costs $10 a month.</p><p class="price">Pro costs $20 a month.</p>
<section><h2>What every plan includes</h2><p>Unlimited projects and <a href="/support">email support</a>.</p></section>
<article><header><h3>First teaser</h3></header><p>A short teaser.</p><footer>Posted by Ann</footer></article>
<article><h3>Second teaser</h3><p>Another teaser, a little longer than the first one, about something else.</p></article>
<table><thead><tr><th>Plan</th><th>Seats</th></tr></thead><tbody><tr><td>Basic</td><td>1</td></tr><tr><td>Pro</td><td>5</td></tr></tbody></table>
</main>
<aside><h2>Related reading</h2><p>Our pricing history.</p></aside>
<script>document.write("late script")</script><noscript>Enable scripts</noscript>
<form><label>Newsletter email</label><input name="e"><button>Subscribe button</button></form>
<footer><p>Copyright footer</p><nav><a href="/terms">Terms link</a></nav></footer>
</body></html>`;

const CONTENT = [
  'Pricing plans', 'Basic costs $10 a month.', 'Pro costs $20 a month.', 'What every plan includes', 'email support',
  'First teaser', 'A short teaser.', 'Posted by Ann', 'Second teaser', 'about something else.', 'Seats',
  'Related reading', 'Our pricing history.', 'Newsletter email',
];
const LEFT_OUT = [
  'Shop title', 'color: red', 'script text', 'late script', 'Enable scripts', 'Brand name', 'Plans link', 'About link',
  'Breadcrumb link', 'Subscribe button', 'Copyright footer', 'Terms link',
];

const URL_ = 'https://shop.test/pricing';

function wholePage(html: string): { text: string; markdown: string } {
  const document = buildDocument(html);
  const source = { document, base: URL_, body: undefined };
  return { text: String(readAttr(document, 'text', source) ?? ''), markdown: String(readAttr(document, 'markdown', source) ?? '') };
}

/** The words of a text or of Markdown, without its link targets and escapes. */
const words = (value: string): string[] => value.replace(/\]\([^)]*\)/g, ']').replace(/\\(.)/g, '$1').match(/[\p{L}\p{N}]+/gu) ?? [];

describe('whole-page text and Markdown (no selector)', () => {
  test('the whole page: heading, prices, section, every article, the aside and the table; no chrome, script or style', () => {
    const { markdown } = wholePage(SHOP);
    assert.equal(markdown, [
      '# Pricing plans', 'Basic costs $10 a month.', 'Pro costs $20 a month.', '## What every plan includes',
      'Unlimited projects and [email support](https://shop.test/support).', '### First teaser', 'A short teaser.', 'Posted by Ann',
      '### Second teaser', 'Another teaser, a little longer than the first one, about something else.',
      '| Plan | Seats |\n| --- | --- |\n| Basic | 1 |\n| Pro | 5 |', '## Related reading', 'Our pricing history.', 'Newsletter email',
    ].join('\n\n'));
  });

  test('text and Markdown cover the same content: the same words, the same left out', () => {
    const { text, markdown } = wholePage(SHOP);
    for (const phrase of CONTENT) {
      assert.ok(text.includes(phrase), `text: ${phrase}`);
      assert.ok(markdown.includes(phrase), `markdown: ${phrase}`);
    }
    for (const phrase of LEFT_OUT) {
      assert.ok(!text.includes(phrase), `text: ${phrase}`);
      assert.ok(!markdown.includes(phrase), `markdown: ${phrase}`);
    }
    assert.deepEqual(words(markdown), words(text));
  });

  test('a header or footer is chrome at page level only; landmark roles are chrome anywhere', () => {
    const html = `<body><div class="wrap"><header>Site banner</header>
<article><header>Article head</header><p>Body</p><footer>Article foot</footer></article>
<section><header>Section head</header><p>More</p></section><aside><footer>Aside foot</footer></aside>
<main><header>Main head</header><div role="banner">Role banner</div><p role="contentinfo">Role info</p><ul role=" Navigation list">Role nav</ul></main>
<footer>Page foot</footer></div></body>`;
    const { text, markdown } = wholePage(html);
    assert.equal(markdown, ['Article head', 'Body', 'Article foot', 'Section head', 'More', 'Aside foot', 'Main head'].join('\n\n'));
    assert.equal(text, 'Article head Body Article foot Section head More Aside foot Main head');
  });

  test('what a browser does not render is left out: [hidden], a dialog that is not open', () => {
    const html = '<p>Shown</p><p hidden>Hidden</p><div hidden="until-found">Findable</div><dialog>Closed dialog</dialog><dialog open>Open dialog</dialog>';
    const { text, markdown } = wholePage(html);
    assert.equal(markdown, 'Shown\n\nFindable\n\nOpen dialog');
    assert.equal(text, 'Shown Findable Open dialog');
  });

  test('with a selector, the element is read whole: its nav, header and footer are its own', async () => {
    const options = parseQuery(`url=${URL_}&data.nav.selector=header.site&data.nav.attr=markdown&data.foot.selector=body > footer&data.foot.attr=text`);
    const values = await runRules(options.data!, { document: buildDocument(SHOP), url: URL_ }, { media: async () => null });
    assert.equal(values.nav, '[Brand name](https://shop.test/)\n\n[Plans link](https://shop.test/plans) [About link](https://shop.test/about)');
    assert.equal(values.foot, 'Copyright footer Terms link');
  });

  test('the page is left as it was: the chrome is still there for the rules after it', async () => {
    const document = buildDocument(SHOP);
    const before = render(document);
    const options = parseQuery(`url=${URL_}&data.md.attr=markdown&data.text.attr=text&data.nav.selector=nav&data.nav.attr=text&data.html.attr=html`);
    const values = await runRules(options.data!, { document, url: URL_ }, { media: async () => null });
    assert.equal(values.nav, 'Plans link About link');
    assert.ok((values.html as string).includes('<footer><p>Copyright footer</p>'));
    assert.equal(render(document), before);
  });

  test('a frameset page has no text of its own: null, not a crash', () => {
    const frameset = '<html><head><title>Frames</title></head><frameset cols="20,80"><frame src="menu.htm"><frame src="top.htm"><noframes><body></body></noframes></frameset></html>';
    assert.deepEqual(wholePage(frameset), { text: '', markdown: '' });
  });

  test('corpus pages (every third): the Markdown holds the words of the text', () => {
    let found = 0;
    let total = 0;
    for (const page of loadCorpus().filter((_, i) => i % 3 === 0)) {
      const { text, markdown } = wholePage(page.html);
      const inMarkdown = new Set(words(markdown));
      const textWords = words(text);
      total += textWords.length;
      found += textWords.filter((word) => inMarkdown.has(word)).length;
    }
    // Not all: attr=text runs inline elements together where mdream parts them ("helpSkip" against "help", "Skip").
    assert.ok(found / total > 0.99, `${found} of ${total} words`);
  });
});
