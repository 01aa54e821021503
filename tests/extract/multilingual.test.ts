/**
 * Metadata as readers name it in any language (issue 27): bylines' prefixes and conventions, commenters and form
 * labels, desk bylines, dates in words and numbers of the main languages, logo headings and site-name affixes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDate } from '../../lib/extract/date.ts';
import { head, values } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const page = (lang: string, body: string, ...tags: string[]): string =>
  `<!doctype html><html lang="${lang}"><head>${tags.join('')}</head><body>${body}</body></html>`;


/** The title of a page whose <title> is `title` and whose og:site_name is `site`. */
const named = (title: string, site: string) => values(head(`<title>${title}</title>`, `<meta property="og:site_name" content="${site}">`)).title;

describe('dates in any language', () => {
  test('month names and day-first numbers of the page language', () => {
    assert.equal(parseDate('Samstag, 5. Mai 2010', { lang: 'de' })?.slice(0, 10), '2010-05-05');
    assert.equal(parseDate('par JPA le 7 mai 2020 - 12:38', { lang: 'fr' }), '2020-05-07T12:38:00.000Z');
    assert.equal(parseDate('5 de mayo de 2010', { lang: 'es' })?.slice(0, 10), '2010-05-05');
    assert.equal(parseDate('23.09.22', { lang: 'de' })?.slice(0, 10), '2022-09-23');
    assert.equal(parseDate('2019年10月16日', { lang: 'ja' })?.slice(0, 10), '2019-10-16');
    assert.equal(parseDate('2019年10月16日 10:30', { lang: 'zh-CN' }), '2019-10-16T10:30:00.000Z');
  });

  test('the page language orders an ambiguous numeric date', () => {
    assert.equal(parseDate('03/04/2010', { lang: 'en-GB' })?.slice(0, 10), '2010-04-03');
    assert.equal(parseDate('03/04/2010', { lang: 'fr' })?.slice(0, 10), '2010-04-03');
    assert.equal(parseDate('03/04/2010', { lang: 'en-US' })?.slice(0, 10), '2010-03-04');
    assert.equal(parseDate('03/04/2010')?.slice(0, 10), '2010-03-04');
  });

  test('no date from relative words, a day without its year, or a rating', () => {
    assert.equal(parseDate('vor 1 Woche', { lang: 'de' }), undefined);
    assert.equal(parseDate('1 week ago', { lang: 'en-GB' }), undefined);
    assert.equal(parseDate('5. Mai', { lang: 'de' }), undefined);
    assert.equal(parseDate('9.2/10 aus 425 Bewertungen', { lang: 'de' }), undefined);
  });

  test('a byline date in the page language, and the dateline under the headline', () => {
    assert.equal(values(page('de', '<span class="date">Samstag, 5. Oktober 2013</span>')).date?.slice(0, 10), '2013-10-05');
    assert.equal(values(page('de', '<h1>Rede beim Konvent</h1><p>Berlin, 31. März 2003</p>')).date?.slice(0, 10), '2003-03-31');
  });

  test('the dates of readers\' comments are not the page\'s', () => {
    const html = page('de', '<h1>Kurz</h1><div id="comments"><span class="comment-date">12.04.2020 17:02</span></div>');
    assert.equal(values(html).date, null);
  });
});

describe('authors as readers name them', () => {
  test('byline prefixes of other languages are cut to the name', () => {
    const byline = (lang: string, text: string) => values(page(lang, `<p class="byline">${text}</p>`)).author;
    assert.equal(byline('de', 'von Heike Buchter'), 'Heike Buchter');
    assert.equal(byline('de', 'Eingestellt von Anne Lück'), 'Anne Lück');
    assert.equal(byline('fr', 'par Jean Dupont'), 'Jean Dupont');
    assert.equal(byline('es', 'por Nuño Domínguez'), 'Nuño Domínguez');
    assert.equal(byline('it', 'di Mario Rossi'), 'Mario Rossi');
    assert.equal(byline('nl', 'door Jan de Vries'), 'Jan de Vries');
    assert.equal(byline('sv', 'av Anna Berg'), 'Anna Berg');
    assert.equal(byline('pl', 'przez Jan Kowalski'), 'Jan Kowalski');
    assert.equal(byline('ru', 'автор Иван Петров'), 'Иван Петров');
    assert.equal(byline('zh', '文/焦鹏 孔德明'), '焦鹏 孔德明');
    assert.equal(byline('it', 'Di Caprio Leonardo'), 'Di Caprio Leonardo');
  });

  test('a byline\'s date in the page language is cut off', () => {
    const html = page('de', '<div class="author-line">Von Isabella DiBiase am Samstag, 19. Oktober 2019 um 11:14 Uhr</div>');
    assert.equal(values(html).author, 'Isabella DiBiase');
  });

  test('author links of "all posts by" name the author', () => {
    assert.equal(values(page('en', '<div class="author-box"><a href="/people/dl">View all posts by Daniel Lemire</a></div>')).author, 'Daniel Lemire');
    assert.equal(values(page('de', '<div class="author-box"><a href="/p/ps">Zeige alle Beiträge von Petra Ruland</a></div>')).author, 'Petra Ruland');
  });

  test('commenters and comment-form labels are never the author', () => {
    const comments = '<ol class="commentlist"><li><div class="comment-author vcard"><cite>Jane Roe</cite> sagt:</div></li></ol>';
    assert.equal(values(page('de', `<p>Text</p>${comments}`)).author, null);
    assert.equal(values(page('de', '<span class="author-name">Aylin Demir sagt:</span>')).author, null);
    assert.equal(values(page('de', '<label class="comment-form-author">Name *</label><span class="author">Name (erforderlich)</span>')).author, null);
    assert.equal(values(page('en', '<span class="author">Unknown</span><a rel="author" href="/u">Unknown</a>')).author, null);
  });

  test('one word names the author in a link to the author\'s page', () => {
    assert.equal(values(page('de', '<a href="/author/creeny/">Creeny</a>')).author, 'Creeny');
  });

  test('a desk byline is the author when it is the page\'s only byline, never over a person', () => {
    assert.equal(values(head('<meta name="author" content="Redaktion">')).author, 'Redaktion');
    assert.equal(values(head('<meta name="author" content="Editorial Board">')).author, 'Editorial Board');
    assert.equal(values(page('de', '<a href="/author/jr">Jane Roe</a>', '<meta name="author" content="Redaktion">')).author, 'Jane Roe');
  });
});

describe('titles', () => {
  test('the site\'s logo heading is never the headline', () => {
    const logo = '<h1 class="site-title"><a href="/" rel="home">Ein Hundetagebuch</a></h1>';
    assert.equal(values(page('de', logo, '<title>Ein langer Spaziergang im Schnee | Ein Hundetagebuch</title>')).title, 'Ein langer Spaziergang im Schnee');
    const home = '<h1><a href="https://dimido.de/">DimidoBlog</a></h1><h2>Was ist Virales Marketing?</h2>';
    assert.equal(values(page('de', home, '<title>Was ist Virales Marketing? | DimidoBlog</title>'), 'https://dimido.de/2008/07/29/x/').title, 'Was ist Virales Marketing?');
  });

  test('a site-name affix with the separators of every script', () => {
    assert.equal(named('Kinder und Arbeit » ProNATs e.V.', 'ProNATs e.V.'), 'Kinder und Arbeit');
    assert.equal(named('Pflegefinanzierung fordert Reform ǀ EKHN', 'EKHN'), 'Pflegefinanzierung fordert Reform');
    assert.equal(named('得州883家幼儿园染疫｜美国侨报网', '美国侨报网'), '得州883家幼儿园染疫');
    assert.equal(named('Handelsblatt: Industriestrompreis drängt', 'Handelsblatt'), 'Industriestrompreis drängt');
    // What is left must be the headline: a site's own page keeps its name.
    assert.equal(named('Facebook - log in or sign up', 'Facebook'), 'Facebook - log in or sign up');
    assert.equal(named('Amazon | Home', 'Amazon'), 'Amazon | Home');
  });

  test('the page\'s one <h1> over a <title> written for search, when the page writes no sharing headline', () => {
    const body = '<h1>Saftiger Zitronenkuchen vom Blech: einfach köstlich!</h1>';
    assert.equal(values(page('de', body, '<title>Saftiger Zitronenkuchen vom Blech | Backen</title>')).title, 'Saftiger Zitronenkuchen vom Blech: einfach köstlich!');
    // A sharing headline of its own wins; an <h1> of another story never does.
    assert.equal(values(page('de', body, '<title>X | Backen</title>', '<meta property="og:title" content="Zitronenkuchen">')).title, 'Zitronenkuchen');
    assert.equal(values(page('de', '<h1>Willkommen im Shop</h1>', '<title>Anwalt Niemeyer</title>')).title, 'Anwalt Niemeyer');
  });

  test("the <title>'s first part when the page's one <h1> says it alone: the site's name and tagline follow it", () => {
    const titled = (title: string, h1: string) => values(page('de', `<h1>${h1}</h1>`, `<title>${title}</title>`)).title;
    assert.equal(titled('Ben Wilson Surf - Point of Sail - Segelmacher in Kiel', 'Ben Wilson Surf'), 'Ben Wilson Surf');
    assert.equal(titled('Hope! | bewusster leben', 'Hope!'), 'Hope!');
    // Before a colon the first part is a section ("Chronik: Was geschah"); the last part is the show's name.
    assert.equal(titled('Chronik: Was geschah', 'Chronik'), 'Chronik: Was geschah');
    assert.equal(titled('117: A Guest on Redwood | React Podcast', 'React Podcast'), '117: A Guest on Redwood | React Podcast');
  });

  test("the page's one <h1> over a sharing headline rewritten for social feeds, when <title> is the <h1> and the site's name", () => {
    const html = (og: string, h1: string) =>
      page('de', `<h1>${h1}</h1>`, `<title>${h1} | MZ.de</title>`, `<meta property="og:title" content="${og}">`);
    const h1 = 'Hingucker beim Flugplatzfest in Dessau: Zweite F13 kurz vor der Zulassung';
    assert.equal(values(html('Hingucker beim Flugplatzfest: Zweite F13 kurz vor der Zulassung', h1)).title, h1);
    // The <title>'s first part before a long tagline, likewise.
    const first = page('de', '<h1>Ladensterben immer dramatischer</h1>', '<title>Ladensterben immer dramatischer » ☆☆☆☆☆ - Watch e.V. - Aktuelle Geschehnisse</title>', '<meta property="og:title" content="Das Ladensterben wird immer dramatischer">');
    assert.equal(values(first).title, 'Ladensterben immer dramatischer');
    // Or when <title> is the <h1> alone.
    const alone = 'Lange Haare: Dank dieser Lebensmittel wachsen sie viel schneller';
    assert.equal(values(page('de', `<h1>${alone}</h1>`, `<title>${alone}</title>`, '<meta property="og:title" content="Dank dieser Lebensmittel wachsen eure Haare viel schneller">')).title, alone);
    // An <h1> of another story (a list's first teaser) never replaces it.
    assert.equal(values(html('Spike raises $8 million for chat-like email', 'HackerRank Makes Recruiting Transparent')).title, 'Spike raises $8 million for chat-like email');
  });

  test("a site's affix that holds separators itself, or stands in brackets, is cut whole", () => {
    const logo = '<h1><a href="/">Salsa-Figuren - Rueda in Berlin</a></h1>';
    assert.equal(values(page('de', logo, '<title>Enchufla Figuren - Salsa-Figuren - Rueda in Berlin</title>')).title, 'Enchufla Figuren');
    assert.equal(named('Zu Besuch bei Véronique Lacaze — Herz und Blut - Interior | Design', 'Herz und Blut - Interior | Design'), 'Zu Besuch bei Véronique Lacaze');
    assert.equal(named('»Einfach kein Geld mehr« (neues deutschland)', 'neues deutschland'), '»Einfach kein Geld mehr«');
    // Brackets that are not the site's name stay.
    assert.equal(named('Der historische Purzelbaum (2021/5)', 'A la Carte'), 'Der historische Purzelbaum (2021/5)');
  });

  test("a tail that is the site's declared name is cut however short the headline before it", () => {
    assert.equal(named('Penny - Stardew Valley Wiki', 'Stardew Valley Wiki'), 'Penny');
    // A name guessed from the address is not enough.
    assert.equal(values(head('<title>Penny - Stardew Valley Wiki</title>'), 'https://stardewvalleywiki.com/Penny').title, 'Penny - Stardew Valley Wiki');
  });
});
