import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { head, ldJson, values } from './helpers.ts';

describe('description', () => {
  test('og:description, then twitter:description, then meta description', () => {
    const all = [
      '<meta name="description" content="Meta">',
      '<meta name="twitter:description" content="Twitter">',
      '<meta property="og:description" content="OG">',
    ];
    assert.equal(values(head(...all)).description, 'OG');
    assert.equal(values(head(all[0]!, all[1]!)).description, 'Twitter');
    assert.equal(values(head(all[0]!)).description, 'Meta');
  });

  test('meta names are matched case-insensitively', () => {
    assert.equal(values(head('<meta name="Description" content="Upper">')).description, 'Upper');
  });

  test('itemprop, Dublin Core and JSON-LD descriptions', () => {
    assert.equal(values('<body><meta itemprop="description" content="Micro"></body>').description, 'Micro');
    assert.equal(values(head('<meta name="dcterms.abstract" content="Abstract">')).description, 'Abstract');
    assert.equal(values(head(ldJson({ '@type': 'WebPage', description: 'LD' }))).description, 'LD');
  });

  test("nothing when a page that is not an article declares no description: its first paragraph is not one", () => {
    const body = `<body><nav><p>Home, about us, contact us and other navigation links here</p></nav>
      <article><p>Short.</p>
      <p>This is the first real paragraph of the article, long enough to describe it.</p></article></body>`;
    assert.equal(values(body).description, null);
    // An article (og:type) that declares none is described by its lead paragraph, as a news reader shows it.
    const article = `${head('<meta property="og:type" content="article">')}${body}`;
    assert.equal(values(article).description, 'This is the first real paragraph of the article, long enough to describe it.');
  });

  test('whitespace collapsed and entities decoded', () => {
    assert.equal(
      values(head('<meta property="og:description" content="  a\n\tb &amp;amp; c ">')).description,
      'a b & c',
    );
  });

  test("the site's own description is boilerplate: the page's own wins, the site's only when nothing else", () => {
    const site = ldJson({ '@type': 'WebSite', name: 'Site', description: 'The best news on the web, every day.' });
    assert.equal(
      values(head(site, '<meta property="og:description" content="The best news on the web, every day.">', '<meta name="description" content="A fire destroyed the old mill on Monday night.">')).description,
      'A fire destroyed the old mill on Monday night.',
    );
    assert.equal(values(head(site, '<meta property="og:description" content="The best news on the web, every day.">')).description, 'The best news on the web, every day.');
  });
});
