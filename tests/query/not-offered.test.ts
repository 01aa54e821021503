/**
 * Every parameter in Microlink's documentation either works or is refused by name (issue 17): the ones Glance
 * does not offer answer EUNSUPPORTED naming them; the legacy and Microlink-only spellings that do work are read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GlanceError } from '../../lib/errors.ts';
import { parseQuery } from '../../lib/query/index.ts';

const URL_PARAM = 'url=https%3A%2F%2Fexample.com';
const parse = (query: string) => parseQuery(`${URL_PARAM}&${query}`);

describe('Microlink parameters Glance does not offer', () => {
  for (const [query, name] of [
    ['function=(%7B%20page%20%7D)%20%3D%3E%20page.title()', 'function'],
    ['proxy=http%3A%2F%2Fproxy.example%3A8080', 'proxy'],
    ['retry=3', 'retry'],
    ['modules=foo', 'modules'],
    ['screenshot&screenshot.animated', 'screenshot.animated'],
    ['screenshot.animated=true', 'screenshot.animated'],
  ] as const) {
    test(`${name} is refused by name with the reason`, () => {
      assert.throws(() => parse(query), (error: unknown) => {
        assert.ok(error instanceof GlanceError);
        assert.equal(error.code, 'EUNSUPPORTED');
        assert.equal(error.statusCode, 400);
        assert.match(error.message, new RegExp(`\`${name.replace('.', '\\.')}\` parameter is not offered by Glance: .{20,}`));
        assert.deepEqual(error.data, { [name]: 'not offered' });
        return true;
      });
    });
  }

  test('screenshot.animated=false asks for nothing missing', () => {
    assert.notEqual(parse('screenshot&screenshot.animated=false').screenshot, false);
  });
});

describe('Microlink spellings that work', () => {
  test('stream is the legacy name of embed; both at once is refused', () => {
    assert.deepEqual(parse('stream=screenshot.url').embed, { path: 'screenshot.url', proxy: false });
    assert.deepEqual(parse('stream=image.url&stream.proxy').embed, { path: 'image.url', proxy: true });
    assert.throws(() => parse('stream=title&embed=title'), (error: unknown) => error instanceof GlanceError && error.code === 'EINVALQUERY');
  });

  test('cacheKey is read (and bounded)', () => {
    assert.equal(parse('cacheKey=v2').cacheKey, 'v2');
    assert.equal(parse('').cacheKey, undefined);
    assert.throws(() => parse(`cacheKey=${'x'.repeat(257)}`), GlanceError);
  });

  test('filename is read as its safe form (no extension), and refused by name when nothing nameable is left', () => {
    assert.equal(parse('filename=solar-system').filename, 'solar-system');
    assert.equal(parse('filename=invoice.pdf').filename, 'invoice');
    assert.equal(parse('filename=..%2F..%2Fetc%2Fpasswd').filename, '_._etc_passwd');
    assert.equal(parse('').filename, undefined);
    for (const query of ['filename=..', 'filename=', 'filename=%2F', 'filename.x=1']) {
      assert.throws(() => parse(query), (error: unknown) => {
        assert.ok(error instanceof GlanceError);
        assert.equal(error.code, 'EINVALQUERY');
        assert.deepEqual(Object.keys(error.data ?? {}), ['filename']);
        return true;
      }, query);
    }
  });

  test('durations as the ms package spells them', () => {
    assert.equal(parse('ttl=1day').ttl, 86_400_000);
    assert.equal(parse('timeout=10secs').timeout, 10_000);
    assert.equal(parse('ttl=90secs&staleTtl=1min').staleTtl, 60_000);
  });
});
