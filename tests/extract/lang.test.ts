import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseLang } from '../../lib/extract/lang.ts';
import { head, ldJson, values } from './helpers.ts';

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
});
