import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

const everything = { image: true, logo: true, audio: true, video: true };

describe('ping', () => {
  test('checks everything by default and with ping=true', () => {
    assert.deepEqual(parse('').ping, everything);
    assert.deepEqual(parse('ping').ping, everything);
    assert.deepEqual(parse('ping=true').ping, everything);
  });

  test('ping=false checks nothing', () => {
    assert.deepEqual(parse('ping=false').ping, { image: false, logo: false, audio: false, video: false });
  });

  test('the object form changes only the sub-keys given', () => {
    assert.deepEqual(parse('ping.audio=false').ping, { ...everything, audio: false });
    assert.deepEqual(parse('ping=true&ping.image=false&ping.logo=false').ping, {
      ...everything,
      image: false,
      logo: false,
    });
  });

  test('refuses non-booleans, naming the sub-key', () => {
    rejects('ping.video=off', 'EINVALQUERY', 'ping.video');
    rejects('ping=sometimes', 'EINVALQUERY', 'ping');
  });
});

describe('iframe and palette', () => {
  test('iframe is off by default, a flag, or an object of oEmbed sizes', () => {
    assert.equal(parse('').iframe, false);
    assert.deepEqual(parse('iframe').iframe, { maxWidth: undefined, maxHeight: undefined });
    assert.deepEqual(parse('iframe.maxWidth=350&iframe.maxHeight=200').iframe, { maxWidth: 350, maxHeight: 200 });
    rejects('iframe.maxWidth=0', 'EINVALQUERY', 'iframe.maxWidth');
    rejects('iframe.maxHeight=wide', 'EINVALQUERY', 'iframe.maxHeight');
  });

  test('palette is a flag', () => {
    assert.equal(parse('').palette, false);
    assert.equal(parse('palette').palette, true);
  });
});
