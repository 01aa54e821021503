import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { servedType } from '../../lib/media/served-type.ts';
import * as make from '../ping/fixtures.ts';

const type = (label: string | undefined, bytes: Buffer) => {
  const served = servedType(label, bytes);
  return 'contentType' in served ? served.contentType : `refused: ${served.refused}`;
};

describe('the type a proxied file is answered with', () => {
  test("known formats: the host's label when it names the same kind, else the format's own", () => {
    assert.equal(type('image/png', make.png(1, 1)), 'image/png');
    assert.equal(type('Image/PNG; charset=binary', make.png(1, 1)), 'image/png', 'lower case, no parameters');
    assert.equal(type('image/jpeg', make.png(1, 1)), 'image/jpeg', 'an image label on an image is the host’s to choose');
    assert.equal(type('application/octet-stream', make.png(1, 1)), 'image/png');
    assert.equal(type(undefined, make.jpeg(2, 2)), 'image/jpeg');
    assert.equal(type('video/mp4', make.png(1, 1)), 'image/png', 'a video label does not stick to an image');
    assert.equal(type('image/png', make.mp4(1)), 'video/mp4', 'nor an image label to a video');
    assert.equal(type('audio/webm', make.webm(1, 2, 2)), 'audio/webm', 'audio and video share containers');
    assert.equal(type('video/mp4; codecs="avc1"', make.mp4(1)), 'video/mp4');
    assert.equal(type('text/html', make.mp3(2)), 'audio/mpeg');
    assert.equal(type(undefined, make.flac(1)), 'audio/flac');
    assert.equal(type(undefined, make.ogg('opus', 1)), 'audio/opus');
    assert.equal(type(undefined, make.ico([16])), 'image/x-icon');
    assert.equal(type(undefined, make.avif(1, 1)), 'image/avif');
  });

  test('formats whose extension has no MIME type of its own still get a media type', () => {
    const matroska = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('matroska'), Buffer.alloc(60)]);
    assert.equal(type(undefined, matroska), 'video/x-matroska');
  });

  test('SVG is image/svg+xml whatever the label; an SVG label does not make other bytes SVG', () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    assert.equal(type('text/plain', svg), 'image/svg+xml');
    assert.equal(type('image/svg+xml', make.png(1, 1)), 'image/png');
    assert.match(type('image/svg+xml', Buffer.from([0, 1, 2, 3, 4, 5])), /^refused/);
  });

  test('HTML and text are refused whatever their label', () => {
    assert.equal(type('image/png', Buffer.from('<!doctype html><title>404</title>')), 'refused: an HTML page');
    assert.equal(type('image/png', Buffer.from('  <html><body>login</body></html>')), 'refused: an HTML page');
    assert.equal(type('image/png', Buffer.from('{"error":"not found"}')), 'refused: text labelled image/png');
    assert.equal(type('video/mp4', Buffer.from('<script>alert(1)</script>')), 'refused: text labelled video/mp4');
    assert.equal(type(undefined, Buffer.from('Not Found\r\n')), 'refused: text');
  });

  test('binary bytes Glance does not recognise: only under a media label', () => {
    const unknown = Buffer.from([0xff, 0x0a, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05]);
    assert.equal(type('image/jxl', unknown), 'image/jxl');
    assert.equal(type('video/mp2t', unknown), 'video/mp2t');
    assert.equal(type('application/octet-stream', unknown), 'refused: a file of type application/octet-stream');
    assert.equal(type(undefined, unknown), 'refused: a file of no declared type that Glance does not recognise');
    assert.match(type('image/png, text/html', unknown), /^refused/, 'a label that is not one media type');
  });
});
