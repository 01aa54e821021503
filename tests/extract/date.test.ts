import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDate } from '../../lib/extract/date.ts';
import { head, ldJson, values } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

describe('parseDate', () => {
  const cases: [string | number, string | undefined][] = [
    ['2024-03-05T08:30:00Z', '2024-03-05T08:30:00.000Z'],
    ['2024-03-05T10:30:00+02:00', '2024-03-05T08:30:00.000Z'],
    ['2016-05-24T14:00:00-0700', '2016-05-24T21:00:00.000Z'],
    ['2020-06-11T14:26:01.674', '2020-06-11T14:26:01.674Z'],
    ['2024-03-05 08:30', '2024-03-05T08:30:00.000Z'],
    ['2024-03-05', '2024-03-05T00:00:00.000Z'],
    ['2016-07-07 00:39:49 Etc/GMT', '2016-07-07T00:39:49.000Z'],
    ['Tue, 05 Mar 2024 08:30:00 GMT', '2024-03-05T08:30:00.000Z'],
    ['June 03, 2020, 06:46 PM EDT', '2020-06-03T22:46:00.000Z'],
    ['By Jo | May 24, 2016 at 3:45 pm', '2016-05-24T15:45:00.000Z'],
    // A calendar day without a time: noon UTC is that same day from UTC-11 to UTC+11.
    ['March 5, 2024', '2024-03-05T12:00:00.000Z'],
    ['5th March 2024', '2024-03-05T12:00:00.000Z'],
    ['08/10/2016', '2016-08-10T12:00:00.000Z'],
    ['31.12.2019', '2019-12-31T12:00:00.000Z'],
    ['1498744380', '2017-06-29T13:53:00.000Z'],
    ['1498744380000', '2017-06-29T13:53:00.000Z'],
    [1498744380, '2017-06-29T13:53:00.000Z'],
    ['2017-02-31', undefined],
    ['0001-01-01T00:00:00Z', undefined],
    ['3024-01-01', undefined],
    ['0', undefined],
    ['Version 2', undefined],
    ['5 mins', undefined],
    ['', undefined],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} → ${expected}`, () => assert.equal(parseDate(input), expected));
  }
});

describe('date', () => {
  test('datePublished first (what readers mean by the date), dateModified only when nothing else is there', () => {
    const html = head(
      ldJson({ '@type': 'Article', datePublished: '2024-01-01T00:00:00Z', dateModified: '2024-02-01T00:00:00Z' }),
    );
    assert.equal(values(html).date, '2024-01-01T00:00:00.000Z');
    assert.equal(
      values(head(ldJson({ '@type': 'Article', dateModified: '2024-02-01T00:00:00Z' }))).date,
      '2024-02-01T00:00:00.000Z',
    );
    // A date shown in the text beats a modification date.
    assert.equal(
      values(`${head(ldJson({ '@type': 'Article', dateModified: '2024-02-01T00:00:00Z' }))}<body><time datetime="2024-01-15">Jan 15</time>`).date,
      '2024-01-15T00:00:00.000Z',
    );
  });

  test('a time written with an offset keeps it (the day the page\'s readers saw); a date alone keeps its day', () => {
    assert.equal(
      values(head('<meta property="article:published_time" content="2020-06-10T23:30:00-04:00">')).date,
      '2020-06-10T23:30:00.000-04:00',
    );
    assert.equal(values(head('<meta property="article:published_time" content="2020-06-10T00:30:00+05:30">')).date, '2020-06-10T00:30:00.000+05:30');
    assert.equal(values(head('<meta property="article:published_time" content="2020-06-10">')).date, '2020-06-10T00:00:00.000Z');
    assert.equal(values('<body><p class="date">June 10, 2020</p></body>').date?.slice(0, 10), '2020-06-10');
    assert.equal(Date.parse(values(head('<meta property="article:published_time" content="2020-06-10T23:30:00 EDT">')).date!), Date.parse('2020-06-11T03:30:00Z'));
  });

  test('article:modified_time, article:published_time and friends', () => {
    assert.equal(
      values(head('<meta property="article:published_time" content="2024-03-05T08:30:00+00:00">')).date,
      '2024-03-05T08:30:00.000Z',
    );
    assert.equal(
      values(head('<meta property="article:published_time" content="2024-03-05T08:30:00Z">',
        '<meta property="article:modified_time" content="2024-03-06T08:30:00Z">')).date,
      '2024-03-05T08:30:00.000Z',
    );
    assert.equal(values(head('<meta name="DC.date.issued" content="2021-07-01">')).date, '2021-07-01T00:00:00.000Z');
  });

  test('a year alone never beats a dated candidate, even a later or weaker one; alone, it is the answer', () => {
    const film = ldJson({ '@type': 'Movie', name: 'A Film', datePublished: 2010 });
    assert.equal(values(`${head(film)}<body><time datetime="2010-07-15T17:00:00-07:00">Jul 15, 2010</time></body>`).date, '2010-07-15T17:00:00.000-07:00');
    assert.equal(
      values(head(ldJson({ '@type': 'Article', datePublished: '2019', dateModified: '2020-02-01T10:00:00Z' }))).date,
      '2020-02-01T10:00:00.000Z',
    );
    assert.equal(values(head(film)).date, '2010-01-01T00:00:00.000Z');
  });

  test('a time written without its zone takes the offset the page writes for the same clock time elsewhere', () => {
    const ld = ldJson({ '@type': 'NewsArticle', datePublished: '2020-07-09 07:26:05' });
    assert.equal(
      values(head(ld, '<meta property="article:published_time" content="2020-07-09T07:26:05+07:00">')).date,
      '2020-07-09T07:26:05.000+07:00',
    );
    // Another clock time is another claim: the first candidate stands, read as UTC.
    assert.equal(
      values(head(ld, '<meta property="article:published_time" content="2020-07-09T09:00:00+07:00">')).date,
      '2020-07-09T07:26:05.000Z',
    );
  });

  test('microdata and <time datetime>', () => {
    assert.equal(
      values('<body><meta itemprop="datePublished" content="2022-02-02T02:02:02Z"></body>').date,
      '2022-02-02T02:02:02.000Z',
    );
    assert.equal(
      values('<body><time itemprop="datePublished" datetime="2022-03-03">March 3</time></body>').date,
      '2022-03-03T00:00:00.000Z',
    );
    assert.equal(
      values('<body><time datetime="">x</time><time datetime="2022-04-04T10:00:00Z">y</time></body>').date,
      '2022-04-04T10:00:00.000Z',
    );
  });

  test('garbage is skipped for the next candidate', () => {
    const html = head('<meta property="article:modified_time" content="not a date">',
      '<meta property="article:published_time" content="2020-01-01T00:00:00Z">');
    assert.equal(values(html).date, '2020-01-01T00:00:00.000Z');
  });

  test('dates written in bylines and date classes', () => {
    assert.equal(
      values('<body><span class="published">Published March 5, 2024</span></body>').date,
      '2024-03-05T12:00:00.000Z',
    );
    assert.equal(values('<body><div class="post-date">5 mins ago</div></body>').date, null);
  });
});
