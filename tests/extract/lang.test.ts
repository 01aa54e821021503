import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseLang } from '../../lib/extract/lang.ts';
import { head, ldJson, values } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

describe('lang', () => {
  test('normalises tags and locales to ISO 639-1', () => {
    assert.equal(normaliseLang('en-US'), 'en');
    assert.equal(normaliseLang('en_GB'), 'en');
    assert.equal(normaliseLang('ZH-cmn-Hans'), 'zh');
    assert.equal(normaliseLang(' pt-br '), 'pt');
    assert.equal(normaliseLang('eng'), 'en');
    assert.equal(normaliseLang('iw'), 'he');
    assert.equal(normaliseLang('de-DE,de;q=0.9'), 'de');
    assert.equal(normaliseLang('x-default'), undefined);
    assert.equal(normaliseLang('english'), undefined);
    assert.equal(normaliseLang(''), undefined);
  });

  test('og:locale, then itemprop inLanguage, then <html lang>', () => {
    assert.equal(values('<html lang="fr"><head><meta property="og:locale" content="es_ES"></head></html>').lang, 'es');
    assert.equal(values('<html lang="fr"><head><meta itemprop="inLanguage" content="it"></head></html>').lang, 'it');
    assert.equal(values('<html lang="fr-CA"><head></head></html>').lang, 'fr');
  });

  test('an unusable og:locale falls through to the next source', () => {
    assert.equal(values('<html lang="ja"><head><meta property="og:locale" content="xx_XX"></head></html>').lang, 'ja');
  });

  test('Content-Language, Dublin Core and JSON-LD inLanguage', () => {
    assert.equal(values(head('<meta http-equiv="Content-Language" content="nl-NL">')).lang, 'nl');
    assert.equal(values(head('<meta name="DC.language" content="sv">')).lang, 'sv');
    assert.equal(values(head(ldJson({ '@type': 'Article', inLanguage: 'ko-KR' }))).lang, 'ko');
  });

  test('nothing found is null', () => {
    assert.equal(values('<html><body>hi</body></html>').lang, null);
  });
  test('nothing declared: the script of the title and text, where it names one language', () => {
    const page = (title: string, body = '') => values(`<html><head><title>${title}</title></head><body>${body}</body></html>`).lang;
    assert.equal(page('烧警车、闯议会、要求总统辞职_腾讯新闻'), 'zh');
    assert.equal(page('Apple/苹果 iPhone 11 4G全网通智能手机正品-tmall.com天猫'), 'zh');
    assert.equal(page('阿部寛のホームページ'), 'ja');
    assert.equal(page('자동차 열선시트도 정기 구독 서비스가 나온다?'), 'ko');
    assert.equal(page('מקורי Apple iPhone SE סמארטפון נייד טלפון'), 'he');
    // Latin and Cyrillic letters are written for many languages: no guess.
    assert.equal(page('Learn Standard ML in Y Minutes', '<p>Standard ML is a functional programming language.</p>'), null);
    assert.equal(page('Яндекс'), null);
    // A few foreign letters in an English page, or too little text, say nothing.
    assert.equal(page('The word 漢字 in a long English headline about writing systems'), null);
    assert.equal(page('漢'), null);
    // A declaration always wins.
    assert.equal(values('<html lang="en"><head><title>腾讯新闻</title></head></html>').lang, 'en');
  });
});
