import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { head, ldJson, values } from './helpers.ts';

describe('publisher', () => {
  test("an article's inline JSON-LD publisher, then og:site_name", () => {
    const html = head(
      '<meta property="og:site_name" content="Site Name">',
      ldJson({ '@type': 'NewsArticle', publisher: { '@type': 'Organization', name: 'Inline Org' } }),
    );
    assert.equal(values(html).publisher, 'Inline Org');
    assert.equal(values(head('<meta property="og:site_name" content="Site Name">')).publisher, 'Site Name');
  });

  test('og:site_name beats a publisher only reached through a site-wide @graph reference', () => {
    const graph = ldJson({
      '@graph': [
        { '@type': 'Article', publisher: { '@id': '#org' } },
        { '@type': 'Organization', '@id': '#org', name: 'Company Ltd' },
      ],
    });
    assert.equal(values(head(graph, '<meta property="og:site_name" content="Site">')).publisher, 'Site');
    assert.equal(values(head(graph)).publisher, 'Company Ltd');
  });

  test('application-name, app names and Dublin Core publisher', () => {
    assert.equal(values(head('<meta name="application-name" content="App">')).publisher, 'App');
    assert.equal(values(head('<meta property="al:ios:app_name" content="iOS App">')).publisher, 'iOS App');
    assert.equal(values(head('<meta name="DC.publisher" content="DC Press">')).publisher, 'DC Press');
  });

  test('short logo texts and alts; long ones are taglines', () => {
    assert.equal(
      values('<body><div class="site-logo"><img alt="Acme logo" src="/l.png"></div></body>').publisher,
      'Acme',
    );
    const tagline = '<div class="logo"><img alt="Acme - Parts, Laptops, Electronics, Cameras and More!" src="/l.png"></div>';
    assert.equal(values(tagline).publisher, null);
  });

  test('the last part of the title as a last resort', () => {
    assert.equal(values('<title>Story - Section | The Daily</title>').publisher, 'The Daily');
    assert.equal(values('<title>Just a title</title>').publisher, null);
  });
});
