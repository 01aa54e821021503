import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheKey } from '../../lib/cache/index.ts';
import { CACHE_ONLY } from '../../lib/cache/key.ts';
import { parseQuery } from '../../lib/query/index.ts';

const URL_PARAM = 'url=https%3A%2F%2Fexample.com%2Fpost';
const key = (query: string, headers?: Record<string, string>) => cacheKey(parseQuery(query, headers));

const same = (queries: string[]) => {
  const keys = queries.map((query) => key(query));
  for (const [index, value] of keys.entries()) assert.equal(value, keys[0], `${queries[index]} vs ${queries[0]}`);
};

const distinct = (queries: string[]) => {
  const keys = queries.map((query) => key(query));
  assert.equal(new Set(keys).size, queries.length, queries.join(' | '));
};

describe('cacheKey', () => {
  test('is a SHA-256 in hex', () => {
    assert.match(key(URL_PARAM), /^[0-9a-f]{64}$/);
  });

  test('parameter order does not matter', () => {
    same([
      `${URL_PARAM}&screenshot&screenshot.type=jpeg&meta=false`,
      `meta=false&screenshot.type=jpeg&${URL_PARAM}&screenshot`,
    ]);
  });

  test('camelCase and snake_case spellings give one key', () => {
    same([
      `${URL_PARAM}&screenshot.fullPage=true&waitUntil=load&staleTtl=1h`,
      `${URL_PARAM}&screenshot.full_page=true&wait_until=load&stale_ttl=1h`,
    ]);
  });

  test('durations in any unit give one key', () => {
    same([`${URL_PARAM}&ttl=1d&waitForTimeout=2s`, `${URL_PARAM}&ttl=86400000&waitForTimeout=2000`]);
  });

  test('legacy flat screenshot keys fold into screenshot.*', () => {
    same([`${URL_PARAM}&screenshot&fullPage&element=%23main`, `${URL_PARAM}&screenshot.fullPage&screenshot.element=%23main`]);
  });

  test('defaults given explicitly give the key of the defaults left out', () => {
    same([
      URL_PARAM,
      `${URL_PARAM}&meta=true&screenshot=false&ping=true&prerender=auto&device=Macbook%20Pro%2013` +
        '&colorScheme=no-preference&mediaType=screen&javascript=true&animations=false&palette=false',
    ]);
  });

  test('ttl, staleTtl and force never split a key', () => {
    same([
      URL_PARAM,
      `${URL_PARAM}&ttl=1h`,
      `${URL_PARAM}&ttl=max&staleTtl=0`,
      `${URL_PARAM}&staleTtl=false`,
      `${URL_PARAM}&force`,
      `${URL_PARAM}&force=true&ttl=10m&stale_ttl=5m`,
    ]);
  });

  test('an address written differently but naming the same page gives one key', () => {
    same(['url=HTTPS://EXAMPLE.com', 'url=https://example.com/', 'url=%20https://example.com:443/%20']);
  });

  test('embed.proxy=false and stream.proxy give the keys of the plain and the proxied embed', () => {
    same([`${URL_PARAM}&embed=image.url`, `${URL_PARAM}&embed=image.url&embed.proxy=false`, `${URL_PARAM}&stream=image.url`]);
    same([`${URL_PARAM}&embed=image.url&embed.proxy`, `${URL_PARAM}&stream=image.url&stream.proxy=true`]);
  });

  test('device names differing only in case give one key', () => {
    same([`${URL_PARAM}&device=iPhone%2015`, `${URL_PARAM}&device=iphone%2015`]);
  });

  test('anything that changes the answer splits the key', () => {
    distinct([
      URL_PARAM,
      'url=https://example.com/other',
      'url=https://example.com/post?page=2',
      `${URL_PARAM}&screenshot`,
      `${URL_PARAM}&screenshot.type=jpeg`,
      `${URL_PARAM}&screenshot.fullPage`,
      `${URL_PARAM}&screenshot.overlay.browser=dark`,
      `${URL_PARAM}&meta=false`,
      `${URL_PARAM}&embed=image.url`,
      `${URL_PARAM}&embed=image.url&embed.proxy`,
      `${URL_PARAM}&filter=title`,
      `${URL_PARAM}&device=iPhone%2015`,
      `${URL_PARAM}&waitForTimeout=1s`,
      `${URL_PARAM}&headers.accept-language=fr`,
      `${URL_PARAM}&palette`,
      `${URL_PARAM}&data.price.selector=.price`,
    ]);
  });

  test('a Lighthouse report and each of its options split the key; spellings of the same report share one', () => {
    const lh = `${URL_PARAM}&insights.lighthouse`;
    distinct([
      `${URL_PARAM}&insights.lighthouse=false`,
      lh,
      `${lh}&insights.technologies=false`,
      `${lh}.output=html`,
      `${lh}.output=csv`,
      `${lh}.preset=desktop`,
      `${lh}.onlyCategories=seo`,
      `${lh}.onlyCategories=seo,performance`,
      `${lh}.onlyAudits=doctype`,
      `${lh}.skipAudits=doctype`,
      `${lh}.locale=de`,
    ]);
    same([lh, `${URL_PARAM}&insights`, `${lh}=true&insights.lighthouse.output=json`, `${URL_PARAM}&insights.lighthouse.output=JSON`]);
    same([`${lh}.locale=de`, `${lh}.locale=de-AT`]);
    same([`${lh}.onlyCategories=seo`, `${URL_PARAM}&insights.lighthouse.only_categories.0=seo`, `${lh}.onlyCategories=seo,seo`]);
  });

  test('every option that can change the answer splits the key, timeout included; the cache-only ones do not', () => {
    // One query per option, differing from the defaults in that option only. An option added to Options without
    // an entry here fails the completeness check below: decide whether it changes the answer, then add it.
    const differing: Record<string, string> = {
      url: 'url=https://example.com/other',
      meta: 'meta=false',
      screenshot: 'screenshot',
      pdf: 'pdf',
      ping: 'ping=false',
      embed: 'embed=title',
      filter: 'filter=title',
      prerender: 'prerender=false',
      timeout: 'timeout=5s',
      device: 'device=iPhone%2015',
      viewport: 'viewport.width=500',
      waitUntil: 'waitUntil=load',
      waitForSelector: 'waitForSelector=main',
      waitForTimeout: 'waitForTimeout=1s',
      colorScheme: 'colorScheme=dark',
      mediaType: 'mediaType=print',
      javascript: 'javascript=false',
      animations: 'animations=true',
      click: 'click=a',
      scroll: 'scroll=a',
      styles: 'styles=body%7Bcolor%3Ared%7D',
      scripts: 'scripts=void%200',
      headers: 'headers.accept-language=fr',
      audio: 'audio',
      video: 'video',
      iframe: 'iframe',
      palette: 'palette',
      insights: 'insights',
      adblock: 'adblock=false',
      data: 'data.price.selector=.price',
      cacheKey: 'cacheKey=mine',
      filename: 'filename=invoice',
    };
    const options = Object.keys(parseQuery(URL_PARAM)).sort();
    assert.deepEqual([...Object.keys(differing), ...CACHE_ONLY].sort(), options);
    const base = key(URL_PARAM);
    for (const [name, query] of Object.entries(differing)) {
      const other = name === 'url' ? key(query) : key(`${URL_PARAM}&${query}`);
      assert.notEqual(other, base, name);
    }
    for (const query of ['ttl=1h', 'staleTtl=1m', 'force']) assert.equal(key(`${URL_PARAM}&${query}`), base, query);
  });

  test('filename splits the key; spellings of the same safe name share one', () => {
    const pdf = `${URL_PARAM}&pdf`;
    distinct([pdf, `${pdf}&filename=invoice`, `${pdf}&filename=receipt`]);
    same([`${pdf}&filename=invoice`, `${pdf}&filename=invoice.pdf`, `${pdf}&filename=%20invoice%20`]);
  });

  test('x-api-header-* request headers split the key, as the same header given as a parameter does', () => {
    const plain = key(URL_PARAM);
    const viaHeader = key(URL_PARAM, { 'x-api-header-cookie': 'session=1' });
    const viaParam = key(`${URL_PARAM}&headers.cookie=session%3D1`);
    assert.notEqual(viaHeader, plain);
    assert.equal(viaHeader, viaParam);
    assert.notEqual(viaHeader, key(URL_PARAM, { 'x-api-header-cookie': 'session=2' }));
    assert.equal(key(URL_PARAM, { 'user-agent': 'curl/8', accept: '*/*' }), plain, 'other request headers do not');
  });
});
