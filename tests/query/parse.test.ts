import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GlanceError } from '../../lib/errors.ts';
import { parseQuery } from '../../lib/query/index.ts';
import { expectError, parse, rejects } from './expect-error.ts';

describe('parseQuery: defaults and url', () => {
  test('applies every default from the contract', () => {
    const options = parseQuery('url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1');
    assert.deepEqual(options, {
      url: 'https://example.com/a?b=1',
      meta: { fields: ['title', 'description', 'lang', 'author', 'publisher', 'date', 'url', 'image', 'logo'], squareLogo: false },
      screenshot: false,
      pdf: false,
      ping: { image: true, logo: true, audio: true, video: true },
      embed: undefined,
      filter: undefined,
      prerender: 'auto',
      ttl: 86_400_000,
      staleTtl: false,
      force: false,
      cacheKey: undefined,
      filename: undefined,
      timeout: 28_000,
      device: 'Macbook Pro 13',
      viewport: {},
      waitUntil: ['auto'],
      waitForSelector: undefined,
      waitForTimeout: undefined,
      colorScheme: 'no-preference',
      mediaType: 'screen',
      javascript: true,
      animations: false,
      click: [],
      scroll: [],
      styles: [],
      scripts: [],
      headers: {},
      audio: false,
      video: false,
      iframe: false,
      insights: false,
      palette: false,
      adblock: true,
      data: undefined,
    });
  });

  test('the result is deeply frozen', () => {
    const options = parse('screenshot.overlay.browser=dark&waitUntil=load&headers.dnt=1');
    assert.ok(Object.isFrozen(options));
    assert.ok(Object.isFrozen(options.waitUntil));
    assert.ok(Object.isFrozen(options.headers));
    assert.ok(options.screenshot && Object.isFrozen(options.screenshot.overlay));
    assert.throws(() => (options.waitUntil as string[]).push('load'), TypeError);
  });

  test('url is trimmed and otherwise kept as given', () => {
    assert.equal(parseQuery('url=+%20example.com/x%20+').url, 'example.com/x');
    assert.equal(parseQuery('url=ftp://example.com').url, 'ftp://example.com');
  });

  test('a missing or empty url is EINVALURL naming url', () => {
    for (const query of ['', 'screenshot', 'url', 'url=', 'url=+++', 'url.x=https://example.com']) {
      const error = expectError(() => parseQuery(query), 'EINVALURL', 'url');
      assert.match(error.message, /The `url` parameter is required/);
    }
  });

  test('top-level parameters Microlink does not document either are ignored (tracking tags, cache busters)', () => {
    const options = parse('utm_source=x&screenshot&x.y.z');
    assert.equal(options.screenshot && options.screenshot.type, 'png');
    assert.equal(Object.hasOwn(options, 'utm_source'), false);
    assert.equal(Object.hasOwn(options, 'x'), false);
  });

  test('an unknown sub-key of an object parameter is EINVALQUERY naming it, never ignored', () => {
    for (const [query, name] of [
      ['screenshot.colour=red', 'screenshot.colour'],
      ['screenshot.overlay.colour=red', 'screenshot.overlay.colour'],
      ['screenshot&overlay.colour=red', 'overlay.colour'],
      ['pdf.colour=red', 'pdf.colour'],
      ['pdf.margin.middle=1cm', 'pdf.margin.middle'],
      ['viewport.zoom=2', 'viewport.zoom'],
      ['iframe.maxDepth=2', 'iframe.maxDepth'],
      ['ping.screenshot=false', 'ping.screenshot'],
      ['meta.logo.round=true', 'meta.logo.round'],
      ['embed=title&embed.raw=true', 'embed.raw'],
      ['data.x.selector=h1&data.x.regexp=a', 'data.x.regexp'],
    ] as const) {
      rejects(query, query.startsWith('data') ? 'EINVALDATA' : 'EINVALQUERY', name);
    }
  });

  test('a snake_case spelling of a known sub-key is that key', () => {
    const { screenshot, pdf } = parse('screenshot.full_page&pdf.page_ranges=2');
    assert.equal(screenshot && screenshot.fullPage, true);
    assert.equal(pdf && pdf.pageRanges, '2');
  });
});

describe('parseQuery: adblock', () => {
  test('on by default, as on Microlink; adblock=false turns it off; other values are refused by name', () => {
    assert.equal(parse('').adblock, true);
    assert.equal(parse('adblock=false').adblock, false);
    assert.throws(() => parse('adblock=maybe'), (error: Error) => /adblock/.test(error.message));
  });
});

describe('parseQuery: size limits', () => {
  test('an 8 KB query with a valid url parses', () => {
    const long = `https://example.com/?q=${'a'.repeat(8 * 1024)}`;
    const options = parseQuery(`url=${encodeURIComponent(long)}&screenshot&waitUntil=load`);
    assert.equal(options.url, long);
    assert.ok(options.screenshot);
  });

  test('a 20 KB query is refused as too long', () => {
    const query = `url=https://example.com/&q=${'a'.repeat(20 * 1024)}`;
    assert.throws(
      () => parseQuery(query),
      (error: unknown) =>
        error instanceof GlanceError &&
        error.code === 'EINVALQUERY' &&
        error.statusCode === 400 &&
        /query string is too long/.test(error.message),
    );
  });
});

describe('parseQuery: server-side paths', () => {
  for (const [query, param] of [
    ['path=/tmp/x.png', 'path'],
    ['screenshot.path=/tmp/x.png', 'screenshot.path'],
    ['pdf.path=/tmp/x.pdf', 'pdf.path'],
    ['screenshot=false&screenshot.path=/etc/passwd', 'screenshot.path'],
    ['pdf&pdf[path]=x', 'pdf.path'],
  ] as const) {
    test(`refuses ${query}`, () => {
      const error = rejects(query, 'EINVALQUERY', param);
      assert.match(error.message, /never written/);
    });
  }
});

describe('parseQuery: booleans and features', () => {
  test('true / false in any case, a bare key and an empty value mean true', () => {
    assert.equal(parse('force=TRUE').force, true);
    assert.equal(parse('force=False').force, false);
    assert.equal(parse('force').force, true);
    assert.equal(parse('force=').force, true);
    assert.equal(parse('javascript=false').javascript, false);
  });

  test('a boolean with another value is refused, naming it', () => {
    rejects('force=yes', 'EINVALQUERY', 'force');
    rejects('palette=1', 'EINVALQUERY', 'palette');
    rejects('animations.x=true', 'EINVALQUERY', 'animations');
  });

  test('sub-keys alone turn a feature on', () => {
    const options = parse('screenshot.element=%23id&pdf.format=Letter&iframe.maxWidth=350');
    assert.equal(options.screenshot && options.screenshot.element, '#id');
    assert.equal(options.pdf && options.pdf.format, 'Letter');
    assert.deepEqual(options.iframe, { maxWidth: 350, maxHeight: undefined });
  });

  test('an explicit false with sub-keys of the same feature is a conflict', () => {
    for (const [query, param] of [
      ['screenshot=false&screenshot.element=%23id', 'screenshot'],
      ['pdf.format=A4&pdf=false', 'pdf'],
      ['meta=false&meta.title=true', 'meta'],
      ['ping=false&ping.image=true', 'ping'],
      ['iframe=false&iframe.maxWidth=10', 'iframe'],
    ] as const) {
      const error = rejects(query, 'EINVALQUERY', param);
      assert.match(error.message, /contradicts/);
    }
  });

  test('a feature with a non-boolean value is refused', () => {
    rejects('screenshot=yes', 'EINVALQUERY', 'screenshot');
    rejects('pdf=A4', 'EINVALQUERY', 'pdf');
  });
});

describe('parseQuery: camelCase and snake_case', () => {
  test('snake_case works at every level', () => {
    const options = parse(
      [
        'stale_ttl=1h',
        'wait_until=load',
        'wait_for_selector=main',
        'wait_for_timeout=2s',
        'color_scheme=dark',
        'media_type=print',
        'screenshot.full_page',
        'screenshot.omit_background=true',
        'pdf.page_ranges=1-2',
        'pdf.print_background=false',
        'viewport.device_scale_factor=1',
        'viewport.is_mobile=true',
        'viewport.has_touch',
        'viewport.is_landscape=false',
        'iframe.max_height=200',
        'data.links.selector_all=a',
      ].join('&'),
    );
    assert.equal(options.staleTtl, 3_600_000);
    assert.deepEqual(options.waitUntil, ['load']);
    assert.equal(options.waitForSelector, 'main');
    assert.equal(options.waitForTimeout, 2000);
    assert.equal(options.colorScheme, 'dark');
    assert.equal(options.mediaType, 'print');
    assert.equal(options.screenshot && options.screenshot.fullPage, true);
    assert.equal(options.screenshot && options.screenshot.omitBackground, true);
    assert.equal(options.pdf && options.pdf.pageRanges, '1-2');
    assert.equal(options.pdf && options.pdf.printBackground, false);
    assert.deepEqual(options.viewport, { deviceScaleFactor: 1, isMobile: true, hasTouch: true, isLandscape: false });
    assert.deepEqual(options.iframe, { maxWidth: undefined, maxHeight: 200 });
    assert.equal(options.data?.['links']?.[0]?.all, true);
  });

  test('both spellings of one parameter are refused as given twice, with the camelCase name', () => {
    const error = rejects('staleTtl=1h&stale_ttl=1h', 'EINVALQUERY', 'staleTtl');
    assert.match(error.message, /given twice/);
    rejects('screenshot.fullPage&screenshot.full_page', 'EINVALQUERY', 'screenshot.fullPage');
  });

  test('errors name the camelCase dotted parameter even when sent in snake_case', () => {
    rejects('screenshot.full_page=maybe', 'EINVALQUERY', 'screenshot.fullPage');
    rejects('color_scheme=blue', 'EINVALQUERY', 'colorScheme');
  });
});
