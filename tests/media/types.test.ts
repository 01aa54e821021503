import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isImage } from '../../lib/media/sniff.ts';
import { kindOfType, kindOfUrl, mimeOf, typeFromContentType, typeFromUrl } from '../../lib/media/types.ts';
import { contentKey, contentTypeOf } from '../../lib/storage/keys.ts';

describe('a media object type from the content type', () => {
  test('canonical extensions, whatever the alias or parameters', () => {
    assert.equal(typeFromContentType('image/png'), 'png');
    assert.equal(typeFromContentType('image/apng'), 'png');
    assert.equal(typeFromContentType('Image/JPEG; charset=binary'), 'jpg');
    assert.equal(typeFromContentType('image/pjpeg'), 'jpg');
    assert.equal(typeFromContentType('image/vnd.microsoft.icon'), 'ico');
    assert.equal(typeFromContentType('video/ogg'), 'ogv');
    assert.equal(typeFromContentType('audio/ogg'), 'ogg');
    assert.equal(typeFromContentType('audio/webm'), 'weba');
    assert.equal(typeFromContentType('audio/x-wav'), 'wav');
    assert.equal(typeFromContentType('application/x-mpegURL'), 'm3u8');
    assert.equal(typeFromContentType('application/pdf'), 'pdf');
  });

  test('types it does not name: null', () => {
    for (const type of [undefined, 'image/jpg', 'video/x-matroska', 'text/html', 'application/octet-stream']) {
      assert.equal(typeFromContentType(type), null, String(type));
    }
  });
});

describe('a media object type from the URL', () => {
  test('known extensions and their other spellings', () => {
    assert.equal(typeFromUrl('https://x.test/a.PNG'), 'png');
    assert.equal(typeFromUrl('https://x.test/a.jpeg?w=1'), 'jpg');
    assert.equal(typeFromUrl('https://x.test/a.jfif'), 'jpg');
    assert.equal(typeFromUrl('https://x.test/a.tif'), 'tiff');
    assert.equal(typeFromUrl('https://x.test/a.mkv'), 'mkv');
    assert.equal(typeFromUrl('https://x.test/a.m4v'), 'm4v');
    assert.equal(typeFromUrl('https://x.test/a.m3u8'), 'm3u8');
  });

  test('extensions that say only a kind, or nothing: null', () => {
    for (const url of ['https://x.test/a.avi', 'https://x.test/a.heic', 'https://x.test/a.htm', 'https://x.test/a', 'nope']) {
      assert.equal(typeFromUrl(url), null, url);
    }
  });
});

describe('audio or video, from a URL or a declared type', () => {
  test('by extension, including formats Glance does not name', () => {
    assert.equal(kindOfUrl('https://x.test/a.mp3'), 'audio');
    assert.equal(kindOfUrl('https://x.test/a.aiff'), 'audio');
    assert.equal(kindOfUrl('https://x.test/a.ogg'), 'audio');
    assert.equal(kindOfUrl('https://x.test/a.ogv'), 'video');
    assert.equal(kindOfUrl('https://x.test/a.gifv'), 'video');
    assert.equal(kindOfUrl('/relative/a.3gp'), 'video');
    assert.equal(kindOfUrl('https://x.test/a.jpg'), undefined);
    assert.equal(kindOfUrl('https://x.test/a.pdf'), undefined);
    assert.equal(kindOfUrl('https://x.test/mp3'), undefined);
  });

  test('by MIME type', () => {
    assert.equal(kindOfType('audio/anything'), 'audio');
    assert.equal(kindOfType('video/mp4; codecs="avc1"'), 'video');
    assert.equal(kindOfType('application/vnd.apple.mpegurl'), 'video');
    assert.equal(kindOfType('image/png'), undefined);
    assert.equal(kindOfType(undefined), undefined);
  });
});

test('sniffed image types', () => {
  for (const type of ['png', 'jpg', 'gif', 'webp', 'bmp', 'ico', 'avif', 'heic', 'tiff', 'svg'] as const) assert.ok(isImage(type), type);
  for (const type of ['mp3', 'mp4', 'webm', 'html', undefined] as const) assert.equal(isImage(type), false, type);
});

test('the canonical MIME type of an extension, through its other spellings; none for types Glance does not name', () => {
  assert.equal(mimeOf('png'), 'image/png');
  assert.equal(mimeOf('jpeg'), 'image/jpeg');
  assert.equal(mimeOf('tif'), 'image/tiff');
  assert.equal(mimeOf('pdf'), 'application/pdf');
  for (const ext of ['heic', 'mkv', 'nope']) assert.equal(mimeOf(ext), undefined, ext);
});

test('stored assets: the canonical content type of each storable type', () => {
  const body = Buffer.from('x');
  assert.equal(contentKey(body, 'image/jpg').contentType, 'image/jpeg');
  assert.equal(contentKey(body, 'IMAGE/PNG; x=y').contentType, 'image/png');
  assert.equal(contentTypeOf(contentKey(body, 'application/pdf').key), 'application/pdf');
  assert.equal(contentTypeOf(contentKey(body, 'image/webp').key), 'image/webp');
  assert.throws(() => contentKey(body, 'image/apng'), /Cannot store/);
  assert.throws(() => contentKey(body, 'image/gif'), /Cannot store/);
});
