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

  test('a title that has no clean twin on the page is shortened only by an affix that names the site', () => {
    const html = head('<title>Story about things | Site</title>', '<meta property="og:site_name" content="Site">');
    assert.equal(values(html).title, 'Story about things');
    assert.equal(values(head('<title>Story about things | Section</title>', '<meta property="og:site_name" content="Site">')).title, 'Story about things | Section');
    assert.equal(values(`${head('<title>Chronik: Was geschah</title>')}<body><h1>Chronik</h1>`).title, 'Chronik: Was geschah');
  });

  test('a site suffix or section prefix is dropped when the page states the headline alone', () => {
    const ld = (headline: string) => `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', headline })}</script>`;
    assert.equal(values(head('<meta property="og:title" content="Grosser Brand in Basel - Telebasel">', ld('Grosser Brand in Basel'))).title, 'Grosser Brand in Basel');
    assert.equal(values(`${head('<title>Chronik: Der Sommer in Zahlen</title>')}<body><h1 class="entry-title">Der Sommer in Zahlen</h1>`).title, 'Der Sommer in Zahlen');
    assert.equal(values(`${head('<title>Bob Dylan - Wikipedia</title>')}<body><h1>Bob Dylan</h1>`).title, 'Bob Dylan');
    assert.equal(values(`${head('<title>Date.prototype.toLocaleString() - JavaScript | MDN</title>')}<body><h1>Date.prototype.toLocaleString()</h1>`).title, 'Date.prototype.toLocaleString()');
    // The affix must be the short part: an episode title is not "Podcast" with an affix.
    assert.equal(values(`${head('<title>117: A Guest on Redwood | React Podcast</title>')}<body><h1>React Podcast</h1>`).title, '117: A Guest on Redwood | React Podcast');
    // No separator set off by spaces, no twin.
    assert.equal(values(`${head('<title>Node.js-Guide</title>')}<body><h1>Node.js</h1>`).title, 'Node.js-Guide');
    assert.equal(values(`${head('<title>Spider-Man Far From Home-Homecoming</title>')}<body><h1>Spider-Man Far From Home</h1>`).title, 'Spider-Man Far From Home-Homecoming');
  });

  test('a site written in a script without spaces joins its affix without spaces too', () => {
    const page = (title: string, h1: string) => values(`${head(`<title>${title}</title>`)}<body><h1>${h1}</h1>`).title;
    assert.equal(page('塞尔维亚宵禁引发十年最大规模抗议_腾讯新闻', '塞尔维亚宵禁引发十年最大规模抗议'), '塞尔维亚宵禁引发十年最大规模抗议');
    assert.equal(page('周末学会了 10个超级实用 Javascript 技巧!_前端小智-CSDN博客', '周末学会了 10个超级实用 Javascript 技巧!'), '周末学会了 10个超级实用 Javascript 技巧!');
    assert.equal(page('Apple iPhone 11 全网通智能手机-tmall.com天猫', 'Apple iPhone 11 全网通智能手机'), 'Apple iPhone 11 全网通智能手机');
  });

  test('a title and its twin may write quotes differently', () => {
    assert.equal(
      values(`${head("<title>Digitizing Healthcare with Helium Health's Goke Olubusi | The Flip Africa</title>")}<body><h1>Digitizing Healthcare with Helium Health\u2019s Goke Olubusi</h1>`).title,
      'Digitizing Healthcare with Helium Health\u2019s Goke Olubusi',
    );
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
