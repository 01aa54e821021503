import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { META_FIELDS } from '../../lib/data/fields.ts';
import { extractMetadata } from '../../lib/extract/index.ts';
import { createContext, firstValue, type FieldSpec } from '../../lib/extract/rules.ts';
import { collectFacts } from '../../lib/extract/collect.ts';
import { head, ldJson, PAGE_URL } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const PAGE = head(
  '<title>T</title>',
  '<meta property="og:description" content="D">',
  '<meta property="og:image" content="/i.jpg">',
  '<link rel="icon" href="/f.png">',
);

describe('extractMetadata', () => {
  test('every field is present; what is not found is null, never omitted', () => {
    const { values, candidates } = extractMetadata({ html: '', url: PAGE_URL });
    assert.deepEqual(Object.keys(values).sort(), [...META_FIELDS].sort());
    for (const field of META_FIELDS) assert.equal(values[field], field === 'url' ? PAGE_URL : null, field);
    assert.deepEqual(candidates, { image: [], logo: ['https://news.example.com/favicon.ico'], audio: [], video: [] });
  });

  test('only the requested fields are computed', () => {
    const { values, candidates } = extractMetadata({ html: PAGE, url: PAGE_URL }, ['title', 'image']);
    assert.equal(values.title, 'T');
    assert.equal(values.image, 'https://news.example.com/i.jpg');
    assert.equal(values.description, null);
    assert.equal(values.url, null);
    assert.equal(values.logo, null);
    assert.deepEqual(candidates.logo, []);
  });

  test('never throws on broken markup', () => {
    const broken = [
      '<html><head><meta property="og:title" content="Unclosed',
      '</div></div><p><b><i>misnested</b></i><title>x',
      '<script type="application/ld+json">{"@type": "Article", "headline": ',
      '\u0000\uffff<<<>>>&&&;;<!--',
      '<base href="http://[::1"><link rel="canonical" href="%%%">',
    ];
    for (const html of broken) assert.doesNotThrow(() => extractMetadata({ html, url: PAGE_URL }), html);
    assert.equal(extractMetadata({ html: broken[1]!, url: PAGE_URL }).values.title, 'x');
  });

  test('a rule that throws yields nothing and the next rule is tried', () => {
    const spec: FieldSpec = {
      rules: [
        () => {
          throw new Error('broken rule');
        },
        ({ facts }) => facts.title,
      ],
      accept: (raw) => raw,
    };
    assert.equal(firstValue(spec, createContext(collectFacts('<title>next</title>', PAGE_URL))), 'next');
  });
});

describe('JSON-LD', () => {
  test('@graph, top-level arrays and several blocks are all read', () => {
    const graph = ldJson({
      '@context': 'https://schema.org',
      '@graph': [{ '@type': 'WebSite', name: 'S' }, { '@type': 'Article', headline: 'From graph' }],
    });
    assert.equal(extractMetadata({ html: head(graph), url: PAGE_URL }).values.title, 'From graph');
    const array = ldJson([{ '@type': 'BreadcrumbList' }, { '@type': 'NewsArticle', headline: 'From array' }]);
    assert.equal(extractMetadata({ html: head(array), url: PAGE_URL }).values.title, 'From array');
  });

  test("a WebPage's mainEntity is read as a node of its own", () => {
    const html = head(ldJson({ '@type': 'WebPage', mainEntity: { '@type': 'Article', headline: 'Nested', author: 'N. Ested' } }));
    const { values } = extractMetadata({ html, url: PAGE_URL });
    assert.equal(values.title, 'Nested');
    assert.equal(values.author, 'N. Ested');
  });

  test('the main entity wins over a site-wide node whatever the order', () => {
    const html = head(
      ldJson({ '@type': 'Organization', name: 'Org', description: 'About the company' }),
      ldJson({ '@type': 'BlogPosting', description: 'About the post' }),
    );
    assert.equal(extractMetadata({ html, url: PAGE_URL }).values.description, 'About the post');
  });

  test('broken JSON is repaired when it is only raw newlines or trailing commas, else ignored', () => {
    const raw = '<script type="application/ld+json">{"@type": "Article", "headline": "Line one\nline two",}</script>';
    assert.equal(extractMetadata({ html: head(raw), url: PAGE_URL }).values.title, 'Line one line two');
    const hopeless = '<script type="application/ld+json">{"headline": "x" "y"}</script><title>Fallback</title>';
    assert.equal(extractMetadata({ html: head(hopeless), url: PAGE_URL }).values.title, 'Fallback');
  });

  test('a type given as a full IRI or a list still counts', () => {
    const html = head(
      ldJson({ '@type': ['http://schema.org/NewsArticle'], author: 'Iri Author' }),
      ldJson({ '@type': 'Organization', author: 'Wrong' }),
    );
    assert.equal(extractMetadata({ html, url: PAGE_URL }).values.author, 'Iri Author');
  });
});

describe('page facts', () => {
  test('attributes and text are entity-decoded once by the parser', () => {
    const facts = collectFacts('<title>A &lt;b&gt; &#x263A;</title><meta name="x" content="&quot;q&quot;">', PAGE_URL);
    assert.equal(facts.title, 'A <b> \u263a');
    assert.deepEqual(facts.meta.get('x'), ['"q"']);
  });

  test('script and style text never leaks into captured text', () => {
    const html = '<body><h1>Head<script>var x = 1;</script><style>.a{}</style>line</h1></body>';
    const facts = collectFacts(html, PAGE_URL);
    assert.equal(facts.texts.h1[0]?.text.trim(), 'Headline');
  });

  test('microdata values carry the item they belong to', () => {
    const html = `<div itemscope itemtype="https://schema.org/Article">
      <span itemprop="headline">H</span>
      <div itemprop="author" itemscope><span itemprop="name">N</span></div>
      <a itemprop="url" href="/u">link</a></div>`;
    const items = collectFacts(html, PAGE_URL).microdata.map((m) => [m.scope, m.prop, m.attr ?? m.slot?.text]);
    assert.deepEqual(items, [['', 'headline', 'H'], ['author', 'name', 'N'], ['', 'url', '/u']]);
  });
});
