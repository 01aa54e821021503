import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { head, ldJson, values } from './helpers.ts';

describe('title', () => {
  test('og:title wins over twitter:title, JSON-LD headline and <title>', () => {
    const html = head(
      '<title>From title | Site</title>',
      ldJson({ '@type': 'NewsArticle', headline: 'From JSON-LD' }),
      '<meta name="twitter:title" content="From Twitter">',
      '<meta property="og:title" content="From OG">',
    );
    assert.equal(values(html).title, 'From OG');
  });

  test('falls back in order: twitter:title, JSON-LD headline, <title>', () => {
    assert.equal(values(head('<title>T</title>', '<meta name="twitter:title" content="Tw">')).title, 'Tw');
    assert.equal(values(head('<title>T</title>', ldJson({ '@type': 'Article', headline: 'H' }))).title, 'H');
    assert.equal(values(head('<title>  Plain\n  title </title>')).title, 'Plain title');
  });

  test('keeps the site suffix as the page wrote it (both peer corpora expect it)', () => {
    const html = head('<title>Story | Site</title>', '<meta property="og:site_name" content="Site">');
    assert.equal(values(html).title, 'Story | Site');
  });

  test('decodes entities, including the double-encoded ones CMSs put in meta content', () => {
    assert.equal(
      values(head('<meta property="og:title" content="Q&amp;amp;A: &amp;quot;x&amp;quot;">')).title,
      'Q&A: "x"',
    );
    assert.equal(values(head('<title>Fish &amp; Chips</title>')).title, 'Fish & Chips');
  });

  test('ignores an SVG <title> and blank candidates', () => {
    const html = '<body><svg><title>icon</title></svg><title>Real</title><meta property="og:title" content="  "></body>';
    assert.equal(values(html).title, 'Real');
  });

  test('Dublin Core, then headings, when nothing else is declared', () => {
    assert.equal(values(head('<meta name="DC.title" content="Dublin">')).title, 'Dublin');
    assert.equal(values('<body><h1 class="entry-title">Entry <em>title</em></h1></body>').title, 'Entry title');
    assert.equal(values('<body><h1>Just a heading</h1></body>').title, 'Just a heading');
  });

  test('nothing found is null', () => {
    assert.equal(values('<p>no title here</p>').title, null);
  });
});
