import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { head, ldJson, values } from './helpers.ts';

describe('author', () => {
  test('JSON-LD author as a string, a Person and an array of Persons', () => {
    assert.equal(values(head(ldJson({ '@type': 'Article', author: 'Ann Lee' }))).author, 'Ann Lee');
    assert.equal(
      values(head(ldJson({ '@type': 'Article', author: { '@type': 'Person', name: 'Ann Lee' } }))).author,
      'Ann Lee',
    );
    const two = ldJson({
      '@type': 'NewsArticle',
      author: [{ '@type': 'Person', name: 'Ann Lee' }, { name: 'Bo Chen' }],
    });
    assert.equal(values(head(two)).author, 'Ann Lee and Bo Chen');
    const three = ldJson({ '@type': 'NewsArticle', author: ['A One', 'B Two', 'C Three'] });
    assert.equal(values(head(three)).author, 'A One, B Two and C Three');
  });

  test('follows @graph references to the Person node', () => {
    const graph = ldJson({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', '@id': '#site', name: 'Site' },
        { '@type': 'Article', author: { '@id': '#ann' }, headline: 'x' },
        { '@type': 'Person', '@id': '#ann', name: 'Ann Lee' },
      ],
    });
    assert.equal(values(head(graph)).author, 'Ann Lee');
  });

  test("JSON-LD wins over meta author; the page's byline (article:author, a byline class) over meta author", () => {
    const html = head(ldJson({ '@type': 'Article', author: 'From LD' }), '<meta name="author" content="From Meta">');
    assert.equal(values(html).author, 'From LD');
    assert.equal(
      values(head('<meta property="article:author" content="Art Author">',
        '<meta name="author" content="Meta Author">')).author,
      'Art Author',
    );
    // Meta author is often the site's maker or its company ("Hanns-Seidel-Stiftung e.V."); readers read the byline.
    const byline = `${head('<meta name="author" content="Hanns-Seidel-Stiftung e.V.">')}<body><article><span class="author">Uta Staschewski</span>`;
    assert.equal(values(byline).author, 'Uta Staschewski');
    assert.equal(values(head('<meta name="author" content="Meta Author">')).author, 'Meta Author');
    // An author link's text without a name is no byline; a handle after the name is cut.
    assert.equal(values(`${head('<meta name="author" content="Frank Hahn">')}<body><article><a class="author-link" href="/a">Alle Artikel</a>`).author, 'Frank Hahn');
    assert.equal(values(`${head()}<body><article><span class="byline">By Noah Kulwin @nkulw</span>`).author, 'Noah Kulwin');
  });

  test('URLs are not names: article:author pointing at a profile is skipped', () => {
    const html = head('<meta property="article:author" content="https://www.facebook.com/someone">',
      '<meta name="twitter:creator" content="@ann">');
    assert.equal(values(html).author, 'ann');
  });

  test('a twitter:creator equal to twitter:site is the brand account, not an author', () => {
    assert.equal(
      values(head('<meta name="twitter:site" content="@acme">',
        '<meta name="twitter:creator" content="@Acme">')).author,
      null,
    );
  });

  test('microdata author and rel=author', () => {
    const micro =
      '<body><div itemprop="author" itemscope itemtype="https://schema.org/Person">' +
      '<span itemprop="name">Mi Crodata</span></div></body>';
    assert.equal(values(micro).author, 'Mi Crodata');
    assert.equal(values('<body><a rel="author" href="/ann">Ann Lee</a></body>').author, 'Ann Lee');
  });

  test('Dublin Core creator', () => {
    assert.equal(values(head('<meta name="DC.creator" content="Dee Cee">')).author, 'Dee Cee');
  });

  test('byline classes: "By" removed, dates and page furniture rejected, a full name required', () => {
    assert.equal(values('<body><div class="byline">By Jane Doe</div></body>').author, 'Jane Doe');
    assert.equal(values('<body><div class="byline">March 5, 2024</div></body>').author, null);
    assert.equal(values('<body><span class="author-box"><a href="#c">0 comments</a></span></body>').author, null);
    assert.equal(values('<body><span class="author">Staff</span></body>').author, null);
    assert.equal(
      values('<body><p class="post-author"><a href="/u/1">Posted by Kim Park</a></p></body>').author,
      'Kim Park',
    );
  });

  test('overlong values are not names', () => {
    assert.equal(values(head(`<meta name="author" content="${'x '.repeat(100)}">`)).author, null);
  });

  test('a byline is cut to the name: no role, no date, no site after it', () => {
    assert.equal(values(head('<meta name="author" content="Brian Stevens, Vice President, Google Cloud">')).author, 'Brian Stevens');
    assert.equal(values(head('<meta name="author" content="Paz Segura - Marketing Manager">')).author, 'Paz Segura');
    assert.equal(values(head('<meta name="author" content="By Jane Roe | March 3, 2024">')).author, 'Jane Roe');
    assert.equal(values(head('<meta name="author" content="Jane Roe | Daily Site">', '<meta property="og:site_name" content="Daily Site">')).author, 'Jane Roe');
    // Two people stay two people.
    assert.equal(values(head('<meta name="author" content="By Ann Lee and Bo Chen">')).author, 'Ann Lee and Bo Chen');
  });

  test('a role or desk alone is the author only where nothing names a person; a CMS placeholder never', () => {
    for (const desk of ['Editorial Staff', 'News Desk', 'Redaktion']) {
      assert.equal(values(head(`<meta name="author" content="${desk}">`)).author, desk, desk);
      assert.equal(values(head(`<meta name="author" content="${desk}">`, '<meta property="article:author" content="Ann Lee">')).author, 'Ann Lee', desk);
    }
    assert.equal(values(head('<meta name="author" content="Admin">')).author, null);
  });

  test("the site's own name is the author only when nothing names a person", () => {
    const site = '<meta property="og:site_name" content="Marketing Land">';
    assert.equal(values(`${head(site, '<meta name="author" content="Marketing Land">')}<body><span class="author">Jane Roe</span>`).author, 'Jane Roe');
    assert.equal(values(head(site, '<meta name="author" content="Marketing Land">')).author, 'Marketing Land');
  });

  test('a person in JSON-LD beats an organisation; an organisation when nothing else is there', () => {
    const org = { '@type': 'NewsMediaOrganization', name: 'Daily Site' };
    assert.equal(values(`${head(ldJson({ '@type': 'NewsArticle', author: org }))}<body><a rel="author" href="/ann">Ann Lee</a>`).author, 'Ann Lee');
    assert.equal(values(head(ldJson({ '@type': 'NewsArticle', author: [org, { '@type': 'Person', name: 'Ann Lee' }] }))).author, 'Ann Lee');
    assert.equal(values(head(ldJson({ '@type': 'NewsArticle', author: org }))).author, 'Daily Site');
  });

  test('a twitter:labelN that says "Written by" in any language names the author in its twitter:dataN', () => {
    const pair = (label: string, data: string) => head(`<meta name="twitter:label1" content="${label}">`, `<meta name="twitter:data1" content="${data}">`);
    assert.equal(values(pair('Verfasst von', 'Karoline Herr')).author, 'Karoline Herr');
    assert.equal(values(pair('Written by', 'Ann Lee')).author, 'Ann Lee');
    assert.equal(values(pair('Est. reading time', '3 minutes')).author, null);
  });

  test('a line of text that is a byline label and a name', () => {
    const body = (html: string) => values(`${head()}<body><article>${html}</article>`).author;
    assert.equal(body('<p><span>Datum:</span> 19.11.2021 <br><span>Autor:</span> Fritz Imhof<br>Quelle: Livenet</p>'), 'Fritz Imhof');
    assert.equal(body('<p><i>von Daniela Obers</i></p><p>Grenzen sind das Fundament.</p>'), 'Daniela Obers');
    assert.equal(body('<div>- Redaktion: Eberhard Fuhr (Pressesprecher des EJW)</div>'), 'Eberhard Fuhr');
    assert.equal(body('<div>Par&nbsp;<a href="/node/hy">Matthieu Hy</a></div>'), 'Matthieu Hy');
    assert.equal(body('<div>Gespeichert von <span class="username">rasos</span></div>'), 'rasos');
    // A bare preposition starts sentences too: one word after it, or words in lower case, name nobody.
    assert.equal(body('<p>von Montag</p><p>by the way, it rained</p><p>Gespeichert von red</p>'), null);
    // A label and its name are one line; menus, comments and page furniture are not bylines.
    assert.equal(body('<h4>Autor</h4><p>Nikolai Huke</p>'), null);
    assert.equal(values(`${head()}<body><nav>von Anna Schmidt</nav><div class="comments"><p>von Bernd Maier</p></div>`).author, null);
    assert.equal(body('<div>Autor: Newsletter</div>'), null);
  });

  test("a handle is the person's name where the page writes it in full, letter for letter", () => {
    const html = `${head('<meta name="author" content="edilson.la.rosa">')}<body><article><p>Por Edilson La Rosa</p><p class="x">Steffi »</p>`;
    assert.equal(values(html).author, 'Edilson La Rosa');
    // The handle with page furniture after it is not its full form.
    assert.equal(values(`${head(ldJson({ '@type': 'Article', author: 'creeny' }))}<body><article><span class="author">Creeny »</span>`).author, 'creeny');
  });
});

