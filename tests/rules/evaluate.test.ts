/** lib/rules: every attr special value, every type (valid, invalid, fallback order), nesting, limits. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GlanceError } from '../../lib/errors.ts';
import { parseQuery } from '../../lib/query/index.ts';
import { buildDocument, MAX_DOM_DEPTH, MAX_MATCHES, MAX_RULES, runRules } from '../../lib/rules/index.ts';

const PAGE = `<!doctype html><html lang="en-US"><head><title>Rules page</title><base href="/sub/"></head><body>
<nav><a href="/home">Home</a></nav>
<article>
  <h1 class="headline">Hello <b>world</b></h1>
  <p id="lead">First para with <a href="x.html">a link</a> and <img src="i.png" alt="pic">.</p>
  <ul><li class="n">1,234 stars</li><li class="n">5.5</li><li class="n">none</li></ul>
  <time datetime="2024-03-05T10:00:00+01:00">March 5</time><span class="bad-date">soon</span>
  <a class="mail" href="mailto:me@example.com">mail</a><a class="nomail" href="/contact">contact</a>
  <input name="q" value="hi"><textarea>typed</textarea>
  <select><option value="a">A</option><option value="b" selected>B</option></select>
  <span class="yes">Yes</span><span class="maybe">maybe</span><span class="ip">192.168.1.10</span><span class="ip6">::1</span>
  <span class="lang">fr-CA</span><span class="re">^a+b$</span><span class="badre">(a</span><span class="obj">{"a":1}</span>
  <span class="by">By Jane Doe</span><span class="pub">  The   Daily  </span>
  <div class="card"><h2>One</h2><a href="/1">go</a></div><div class="card"><h2>Two</h2><a href="/2">go</a></div>
  <div class="card"><p>no title</p></div>
</article><footer>foot</footer></body></html>`;

async function run(query: string, html = PAGE, url = 'https://site.test/a/b'): Promise<Record<string, unknown>> {
  const options = parseQuery(`url=${encodeURIComponent(url)}&${query}`);
  return runRules(options.data!, { document: buildDocument(html), url }, { media: async (type, mediaUrl) => ({ url: mediaUrl, type }) });
}

const one = async (query: string, html?: string): Promise<unknown> => (await run(query, html)).f;

describe('attr', () => {
  test('html (the default) is the inner HTML; outerHTML includes the element', async () => {
    assert.equal(await one('data.f.selector=h1'), 'Hello <b>world</b>');
    assert.equal(await one('data.f.selector=h1&data.f.attr=outerHTML'), '<h1 class="headline">Hello <b>world</b></h1>');
  });
  test('html is written as a browser writes innerHTML: characters as themselves, only what must be escaped escaped', async () => {
    const html = '<p id="u">café &amp; &lt;b&gt;&nbsp;“q” 😀 <a title="a&quot;b &lt; é">x</a></p>';
    assert.equal(await one('data.f.selector=%23u', html), 'café &amp; &lt;b&gt;&nbsp;“q” 😀 <a title="a&quot;b &lt; é">x</a>');
  });
  test('html read again by a browser is the same markup: nothing in a value or a text breaks out of its element', async () => {
    const noscript = '<noscript id="n"><p title="</noscript><img src=x onerror=alert(1)>">a &lt;/noscript&gt;&lt;img src=x onerror=alert(2)&gt;</p></noscript>';
    assert.equal(
      await one('data.f.selector=%23n', noscript),
      '<p title="&lt;/noscript&gt;&lt;img src=x onerror=alert(1)&gt;">a &lt;/noscript&gt;&lt;img src=x onerror=alert(2)&gt;</p>',
    );
    // Inside SVG htmlparser2 reads a style as markup and decodes its entities: they are escaped again.
    const svg = '<svg id="g"><style>&lt;/style&gt;&lt;img src=x onerror=alert(3)&gt;</style><rect/></svg>';
    assert.equal(await one('data.f.selector=%23g', svg), '<style>&lt;/style&gt;&lt;img src=x onerror=alert(3)&gt;</style><rect></rect>');
    // Raw text elsewhere is kept as written, as browsers keep it.
    const raw = '<div id="r"><script>if (a < b && c) f("</div>")</script><xmp>&lt;</xmp><input disabled></div>';
    assert.equal(await one('data.f.selector=%23r', raw), '<script>if (a < b && c) f("</div>")</script><xmp>&lt;</xmp><input disabled="">');
  });
  test('html: a noscript\'s raw text is escaped (a browser with scripting on ends it at </noscript>); HTML resumes in foreignObject', async () => {
    const breakout = '<div id="r"><noscript><xmp></noscript></div><div id="after"><img src="x" onerror="alert(1)">after</div>';
    const written = (await one('data.f.selector=%23r', breakout)) as string;
    assert.ok(!written.includes('<img') && written.includes('&lt;img src="x"'), written);
    const svg = '<svg id="s"><foreignObject><style>p>b{}</style></foreignObject><style>&lt;b&gt;</style></svg>';
    assert.equal(await one('data.f.selector=%23s', svg), '<foreignObject><style>p>b{}</style></foreignObject><style>&lt;b&gt;</style>');
  });
  test('html below a <math> leaves its elements\' names as they were for the rules after it', async () => {
    const html = '<div id="r"><math><lineargradient id="m1">x</lineargradient></math></div>';
    for (const first of ['data.h.selector=%23r', 'data.m.attr=markdown']) {
      const values = await run(`${first}&data.a.selector=math lineargradient&data.a.attr=id`, html);
      assert.equal(values.a, 'm1', first);
    }
  });
  test('SVG\'s mixed-case elements match their names in either case, as in a browser', async () => {
    const html = '<svg><defs><linearGradient id="lg"/></defs><clipPath id="cp"><rect id="r"/></clipPath><foreignObject><p id="fp">x</p></foreignObject></svg>';
    const values = await run([
      'data.a.selector=linearGradient&data.a.attr=id', 'data.b.selector=lineargradient&data.b.attr=id',
      'data.c.selector=svg clipPath rect&data.c.attr=id', 'data.d.selector=foreignObject p&data.d.attr=id',
      'data.e.selectorAll=clipPath, linearGradient&data.e.attr=id',
    ].join('&'), html);
    assert.deepEqual([values.a, values.b, values.c, values.d, values.e], ['lg', 'lg', 'r', 'fp', ['lg', 'cp']]);
  });
  test('html leaves the page as it was for the rules after it', async () => {
    const html = '<p id="u" title="a<b">x &amp; y</p>';
    const values = await run('data.a.selector=%23u&data.b.selector=%23u&data.b.attr=title&data.c.selector=%23u&data.c.attr=text', html);
    assert.deepEqual([values.a, values.b, values.c], ['x &amp; y', 'a<b', 'x & y']);
  });
  test('text is the visible text, whitespace collapsed, blocks separated', async () => {
    assert.equal(await one('data.f.selector=h1&data.f.attr=text'), 'Hello world');
    assert.equal(await one('data.f.selector=ul&data.f.attr=text'), '1,234 stars 5.5 none');
  });
  test('markdown keeps structure, links and images absolute against <base>', async () => {
    assert.equal(
      await one('data.f.selector=%23lead&data.f.attr=markdown'),
      'First para with [a link](https://site.test/sub/x.html) and ![pic](https://site.test/sub/i.png).',
    );
  });
  test('markdown reads attribute values holding < and > whole (they are not escaped in the HTML it is made from)', async () => {
    const html = '<p id="x"><img src="/a.png" alt="1 < 2 > 0"> <a href="/q?a=1&amp;b=<2>" title="x > y">go</a></p>';
    assert.equal(
      await one('data.f.selector=%23x&data.f.attr=markdown', html),
      '![1 \\< 2 > 0](https://site.test/a.png) [go](<https://site.test/q?a=1&b=\\<2\\>> "x > y")',
    );
  });
  test('val reads form values; tagName and nodeName the upper-case name; an attribute by name', async () => {
    assert.equal(await one('data.f.selector=input&data.f.attr=val'), 'hi');
    assert.equal(await one('data.f.selector=textarea&data.f.attr=val'), 'typed');
    assert.equal(await one('data.f.selector=select&data.f.attr=val'), 'b');
    assert.equal(await one('data.f.selector=h1&data.f.attr=tagName'), 'H1');
    assert.equal(await one('data.f.selector=h1&data.f.attr=nodeName'), 'H1');
    assert.equal(await one('data.f.selector=h1&data.f.attr=class'), 'headline');
  });
  test('a list of attrs is tried in order', async () => {
    assert.equal(await one('data.f.selector=img&data.f.attr.0=title&data.f.attr.1=alt'), 'pic');
  });
  test('json parses a JSON body given to the rules', async () => {
    const options = parseQuery('url=https://api.test/&data.f.attr=json');
    const values = await runRules(options.data!, { document: buildDocument(''), url: 'https://api.test/', body: '{"a":[1,2]}' }, { media: async () => null });
    assert.deepEqual(values.f, { a: [1, 2] });
  });
  test('without a selector, attr applies to the whole page', async () => {
    assert.equal(await one('data.f.attr=lang&data.f.type=lang'), 'en');
    const markdown = (await one('data.f.attr=markdown')) as string;
    assert.match(markdown, /^# Hello \*\*world\*\*/);
    assert.doesNotMatch(markdown, /Home|foot/);
  });
  test('markdown leaves out what is not prose: controls, drawings, embedded documents; tables stay tables', async () => {
    const html = '<div id="x"><p>Intro</p><select><option>opt</option></select><button>Buy</button><textarea>typed</textarea><svg><text>label</text></svg><iframe src="f.html"></iframe><table><tr><th>h</th></tr><tr><td>d</td></tr></table></div>';
    assert.equal(await one('data.f.selector=%23x&data.f.attr=markdown', html), 'Intro\n\n| h |\n| --- |\n| d |');
  });
});

describe('selectors', () => {
  test('the full CSS syntax: attribute operators, :not, :has, :nth-child, :first-of-type, combinators, lists', async () => {
    assert.equal(await one('data.f.selector=a[href$=".html"]&data.f.attr=text'), 'a link');
    assert.equal(await one('data.f.selector=li.n:not(:first-child)&data.f.attr=text'), '5.5');
    assert.equal(await one('data.f.selector=div.card:has(h2):nth-child(n)%20%3E%20a&data.f.attr=href'), '/1');
    assert.equal(await one('data.f.selector=li:nth-child(3)&data.f.attr=text'), 'none');
    assert.equal(await one('data.f.selector=article%20%3E%20span:first-of-type&data.f.attr=text'), 'soon');
    assert.equal(await one('data.f.selector=.nothing,%20h2&data.f.attr=text'), 'One');
  });
  test('a list of selectors is tried in order; selectorAll answers every non-empty match', async () => {
    assert.equal(await one('data.f.selector.0=.missing&data.f.selector.1=h2&data.f.attr=text'), 'One');
    assert.deepEqual(await one('data.f.selectorAll=li.n&data.f.type=number'), [1234, 5.5]);
  });
  test('nested rules make objects; nested under selectorAll, arrays of objects (empty ones dropped)', async () => {
    const query = 'data.f.selectorAll=.card&data.f.attr.title.selector=h2&data.f.attr.title.attr=text'
      + '&data.f.attr.href.selector=a&data.f.attr.href.attr=href&data.f.attr.href.type=url';
    assert.deepEqual(await one(query), [{ title: 'One', href: 'https://site.test/1' }, { title: 'Two', href: 'https://site.test/2' }]);
    assert.deepEqual(await one('data.f.selector=article&data.f.attr.h.selector=h1&data.f.attr.h.attr=text'), { h: 'Hello world' });
  });
  test('a field no rule fills is null, present', async () => {
    assert.deepEqual(await run('data.f.selector=.missing&data.g.selector=h2&data.g.attr=text'), { f: null, g: 'One' });
  });
});

describe('type', () => {
  const cases: Array<[string, string, unknown]> = [
    ['number', '.n', 1234], ['number', 'h2', undefined],
    ['boolean', '.yes', true], ['boolean', '.maybe', undefined],
    ['date', 'time', '2024-03-05T09:00:00.000Z'], ['date', '.bad-date', undefined],
    ['email', '.mail', 'me@example.com'], ['email', '.nomail', undefined],
    ['ip', '.ip', '192.168.1.10'], ['ip', '.ip6', '::1'], ['ip', 'h2', undefined],
    ['lang', '.lang', 'fr'], ['lang', 'h2', undefined],
    ['regexp', '.re', '^a+b$'], ['regexp', '.badre', undefined],
    ['object', '.obj', { a: 1 }], ['object', 'h2', undefined],
    ['string', 'h2', 'One'], ['auto', 'h2', 'One'],
    ['title', '.pub', 'The Daily'], ['description', '.pub', 'The Daily'],
    ['author', '.by', 'Jane Doe'], ['publisher', '.pub', 'The Daily'],
  ];
  for (const [type, selector, expected] of cases) {
    test(`${type} on ${selector}`, async () => {
      const attr = type === 'date' && selector === 'time' ? 'datetime' : type === 'email' ? 'href' : 'text';
      const value = await one(`data.f.selector=${encodeURIComponent(selector)}&data.f.attr=${attr}&data.f.type=${type}`);
      assert.deepEqual(value, expected ?? null);
    });
  }
  test('url resolves against the page base; a non-http value is not a url', async () => {
    assert.equal(await one('data.f.selector=.nomail&data.f.attr=href&data.f.type=url'), 'https://site.test/contact');
    assert.equal(await one('data.f.selector=.mail&data.f.attr=href&data.f.type=url'), null);
  });
  test('a value failing its type falls through to the next fallback rule, in order', async () => {
    const query = 'data.f.0.selector=h2&data.f.0.attr=text&data.f.0.type=number'
      + '&data.f.1.selector=.maybe&data.f.1.attr=text&data.f.1.type=boolean'
      + '&data.f.2.selector=li.n:nth-child(2)&data.f.2.attr=text&data.f.2.type=number';
    assert.equal(await one(query), 5.5);
  });
  test('media types resolve the URL and hand it to the ping; a dead one falls through', async () => {
    const options = parseQuery('url=https://site.test/&data.f.0.selector=img&data.f.0.attr=src&data.f.0.type=image'
      + '&data.f.1.selector=a.nomail&data.f.1.attr=href&data.f.1.type=image');
    const asked: string[] = [];
    const values = await runRules(options.data!, { document: buildDocument(PAGE), url: 'https://site.test/' }, {
      media: async (_type, url) => (asked.push(url), url.endsWith('.png') ? null : { url, type: 'png' }),
    });
    assert.deepEqual(asked, ['https://site.test/sub/i.png', 'https://site.test/contact']);
    assert.deepEqual(values.f, { url: 'https://site.test/contact', type: 'png' });
  });
  test('media checks wait together, across matches, nested rules and fields; a dead match is left out', async () => {
    const html = '<img src="a.png" alt="A"><img src="dead.gif" alt="D"><img src="c.png" alt="C"><a href="/d.jpg">d</a>';
    const options = parseQuery('url=https://site.test/&data.imgs.selectorAll=img&data.imgs.attr=src&data.imgs.type=image'
      + '&data.link.selector=a&data.link.attr=href&data.link.type=image'
      + '&data.cards.selectorAll=img&data.cards.attr.src.attr=src&data.cards.attr.src.type=image&data.cards.attr.alt.attr=alt');
    let waiting = 0;
    let most = 0;
    const values = await runRules(options.data!, { document: buildDocument(html), url: 'https://site.test/' }, {
      media: async (_type, url) => {
        most = Math.max(most, ++waiting);
        await new Promise((resolve) => setTimeout(resolve, 20));
        waiting--;
        return url.includes('dead') ? null : url.slice(url.lastIndexOf('/') + 1);
      },
    });
    assert.equal(most, 7);
    assert.deepEqual(values, {
      imgs: ['a.png', 'c.png'],
      link: 'd.jpg',
      cards: [{ src: 'a.png', alt: 'A' }, { src: null, alt: 'D' }, { src: 'c.png', alt: 'C' }],
    });
  });
});

describe('EINVALDATA and limits', () => {
  const refused = (query: string, name: RegExp) =>
    assert.throws(() => parseQuery(`url=https://x.test/&${query}`), (error: unknown) => {
      assert.ok(error instanceof GlanceError);
      assert.equal(error.code, 'EINVALDATA');
      assert.equal(error.statusCode, 400);
      assert.match(error.message, name);
      return true;
    });
  test('a selector that does not parse, an unknown type or key, an empty rule', () => {
    refused('data.f.selector=a[href', /`data\.f\.selector`.*CSS selector/);
    refused('data.f.selector=div:frobnicate', /`data\.f\.selector`/);
    refused('data.f.selector=h1&data.f.type=colour', /`data\.f\.type`.*one or more of/);
    refused('data.f.selector=h1&data.f.sel=h2', /`data\.f\.sel`.*not a rule key/);
    refused('data.f.type=string', /`data\.f`.*needs a selector/);
    refused('data.f.evaluate=1&data.f.selector=h1', /`data\.f\.evaluate`/);
  });
  test('too many rules, too deep a nesting', () => {
    const many = Array.from({ length: MAX_RULES + 1 }, (_, i) => `data.f${i}.selector=h1`).join('&');
    refused(many, new RegExp(`at most ${MAX_RULES} rules`));
    refused('data.a.selector=x&data.a.attr.b.selector=x&data.a.attr.b.attr.c.selector=x&data.a.attr.b.attr.c.attr.d.selector=x', /nested at most 3/);
  });
  test('selectorAll keeps at most MAX_MATCHES matches', async () => {
    const html = `<ul>${'<li>x</li>'.repeat(MAX_MATCHES + 50)}</ul>`;
    assert.equal(((await one('data.f.selectorAll=li&data.f.attr=text', html)) as string[]).length, MAX_MATCHES);
  });
  test('elements nested past the DOM bound are folded into their ancestor, their text kept', async () => {
    const depth = MAX_DOM_DEPTH * 2;
    const html = `${'<div>'.repeat(depth)}<span>deep</span>${'</div>'.repeat(depth)}`;
    assert.equal(await one('data.f.selector=div&data.f.attr=text', html), 'deep');
  });
  test('a hostile nesting depth stays linear: the build stops where the page gets too deep', async () => {
    const depth = 200_000;
    const html = `<h1>top</h1>${'<div>'.repeat(depth)}<span>deep</span>${'</div>'.repeat(depth)}`;
    const started = performance.now();
    assert.equal(await one('data.f.selector=h1&data.f.attr=text', html), 'top');
    assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
  });
});
