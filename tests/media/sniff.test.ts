import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sniff } from '../../lib/media/sniff.ts';
import * as make from '../ping/fixtures.ts';

describe('sniffing', () => {
  test('an HTML page is named as such, SVG inside HTML is still HTML', () => {
    assert.equal(sniff(Buffer.from('<!DOCTYPE html><html><body><svg width="1" height="1"></svg>')), 'html');
    assert.equal(sniff(Buffer.from('\n  <html lang="en"><head><title>404</title>')), 'html');
  });

  test('media containers', () => {
    assert.equal(sniff(make.mp3(2)), 'mp3');
    assert.equal(sniff(make.mp3(2, { id3: 10 })), 'mp3');
    assert.equal(sniff(make.mp4(1)), 'mp4');
    assert.equal(sniff(make.mp4(1, { brand: 'M4A ' })), 'm4a');
    assert.equal(sniff(make.mp4(1, { brand: 'qt  ' })), 'mov');
    assert.equal(sniff(make.webm(1, 2, 2)), 'webm');
    assert.equal(sniff(make.ogg('vorbis', 1)), 'ogg');
    assert.equal(sniff(make.ogg('opus', 1)), 'opus');
    assert.equal(sniff(make.wav(0.01)), 'wav');
    assert.equal(sniff(make.flac(1)), 'flac');
  });

  test('unknown bytes: undefined', () => {
    assert.equal(sniff(Buffer.from('hello, plain text')), undefined);
    assert.equal(sniff(Buffer.alloc(100)), undefined);
  });
});
