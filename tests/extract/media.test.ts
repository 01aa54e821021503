import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMetadata } from '../../lib/extract/index.ts';
import { head, ldJson, PAGE_URL, values } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

describe('audio', () => {
  test('og:audio by extension or declared type', () => {
    assert.equal(values(head('<meta property="og:audio" content="/ep.mp3">')).audio, 'https://news.example.com/ep.mp3');
    assert.equal(
      values(head('<meta property="og:audio:secure_url" content="https://cdn.example.com/stream">',
        '<meta property="og:audio:type" content="audio/mpeg">')).audio,
      'https://cdn.example.com/stream',
    );
    assert.equal(values(head('<meta property="og:audio" content="https://player.example.com/embed/1">')).audio, null);
  });

  test('JSON-LD contentUrl of an AudioObject, <audio> and <source>, a download link', () => {
    assert.equal(
      values(head(ldJson({ '@type': 'PodcastEpisode', contentUrl: '/e.m4a' }))).audio,
      'https://news.example.com/e.m4a',
    );
    assert.equal(values('<body><audio src="/a.ogg"></audio></body>').audio, 'https://news.example.com/a.ogg');
    assert.equal(
      values('<body><audio controls><source src="/b.mp3" type="audio/mpeg"></audio></body>').audio,
      'https://news.example.com/b.mp3',
    );
    assert.equal(
      values('<body><a href="/files/show.mp3?dl=1">Download</a></body>').audio,
      'https://news.example.com/files/show.mp3?dl=1',
    );
  });

  test('a download link is audio by the one file-type table (lib/media/types.ts), even in a query', () => {
    assert.equal(values('<body><a href="/play.php?f=ep.weba">Play</a></body>').audio, 'https://news.example.com/play.php?f=ep.weba');
    assert.equal(values('<body><a href="/ep.mp3.html">Listen</a></body>').audio, null);
  });
});

describe('video', () => {
  test('og:video file, not an embed player page', () => {
    assert.equal(
      values(head('<meta property="og:video" content="https://www.youtube.com/embed/x">',
        '<meta property="og:video:type" content="text/html">')).video,
      null,
    );
    assert.equal(
      values(head('<meta property="og:video:url" content="/v.mp4">')).video,
      'https://news.example.com/v.mp4',
    );
  });

  test('twitter:player:stream, JSON-LD VideoObject, <video> and its sources', () => {
    assert.equal(
      values(head('<meta name="twitter:player:stream" content="/s.m3u8">')).video,
      'https://news.example.com/s.m3u8',
    );
    assert.equal(
      values(head(ldJson({ '@type': 'VideoObject', contentUrl: 'https://cdn.example.com/play' }))).video,
      'https://cdn.example.com/play',
    );
    const sources = '<video><source src="/v.webm" type="video/webm"><source src="/v.mp4" type="video/mp4"></video>';
    assert.deepEqual(extractMetadata({ html: sources, url: PAGE_URL }).candidates.video, [
      'https://news.example.com/v.webm',
      'https://news.example.com/v.mp4',
    ]);
  });

  test('an audio <source> is not a video', () => {
    assert.equal(values('<body><audio><source src="/a.mp3"></audio></body>').video, null);
  });
});
