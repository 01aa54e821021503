import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

const DEFAULT = ['title', 'description', 'lang', 'author', 'publisher', 'date', 'url', 'image', 'logo'];
const fields = (query: string) => {
  const { meta } = parse(query);
  return meta === false ? false : meta.fields;
};

describe('meta', () => {
  test('on by default with the default fields; meta=false skips it', () => {
    assert.deepEqual(fields(''), DEFAULT);
    assert.deepEqual(fields('meta'), DEFAULT);
    assert.deepEqual(fields('meta=true'), DEFAULT);
    assert.equal(fields('meta=false'), false);
  });

  test('meta.<field>=true keeps only the listed fields, in the default order', () => {
    assert.deepEqual(fields('meta.logo=true&meta.title'), ['title', 'logo']);
    assert.deepEqual(fields('meta.image=true&meta.title=false'), ['image']);
  });

  test('meta.<field>=false drops a field', () => {
    assert.deepEqual(fields('meta.logo=false&meta.date=false'), DEFAULT.filter((f) => f !== 'logo' && f !== 'date'));
  });

  test('dropping every field is the same as meta=false', () => {
    assert.equal(fields(DEFAULT.map((f) => `meta.${f}=false`).join('&')), false);
  });

  test('audio and video add their fields', () => {
    const options = parse('audio&video=true');
    assert.equal(options.audio, true);
    assert.equal(options.video, true);
    assert.deepEqual(options.meta && options.meta.fields, [...DEFAULT, 'audio', 'video']);
    assert.deepEqual(fields('meta.title=true&video'), ['title', 'video']);
    assert.deepEqual(fields('meta.audio=true'), ['audio']);
    assert.equal(parse('meta.audio=true').audio, true);
  });

  test('audio and video stay requested even when meta is off', () => {
    const options = parse('meta=false&audio');
    assert.equal(options.meta, false);
    assert.equal(options.audio, true);
  });

  test('refuses unknown fields, non-booleans and contradictions, naming each', () => {
    const error = rejects('meta.titel=true', 'EINVALQUERY', 'meta.titel');
    assert.match(error.message, /title, description/);
    rejects('meta.title=yes', 'EINVALQUERY', 'meta.title');
    rejects('meta=maybe', 'EINVALQUERY', 'meta');
    rejects('audio=true&meta.audio=false', 'EINVALQUERY', 'meta.audio');
    rejects('audio=loud', 'EINVALQUERY', 'audio');
  });

  test('meta.logo.square asks for the square logo and lists logo, as Microlink\'s meta: { logo: { square } }', () => {
    const square = (query: string) => {
      const { meta } = parse(query);
      return meta === false ? false : meta.squareLogo;
    };
    assert.equal(square(''), false);
    assert.equal(square('meta.logo.square=true'), true);
    assert.deepEqual(fields('meta.logo.square=true'), ['logo']);
    assert.deepEqual(fields('meta.logo.square=true&meta.title'), ['title', 'logo']);
    assert.equal(square('meta.logo.square=false'), false);
    assert.deepEqual(fields('meta.logo.square=false'), ['logo']);
    rejects('meta.logo.round=true', 'EINVALQUERY', 'meta.logo.round');
    rejects('meta.logo.square=yes', 'EINVALQUERY', 'meta.logo.square');
    rejects('meta.logo=false&meta.logo.square=true', 'EINVALQUERY', 'meta.logo');
  });
});
