import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { Budget } from '../../lib/time/budget.ts';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import { probe } from '../../lib/ping/index.ts';
import { probeOutcome } from '../../lib/ping/probe.ts';
import { URL_TIME_LIMIT_MS } from '../../lib/time/limits.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import * as make from './fixtures.ts';
import { deps, endless, serve } from './helpers.ts';

let server: TestServer;
const methods: string[] = [];
const ranged: Array<string | undefined> = [];
const huge = endless(make.pngHeader(4000, 3000), 50, 'image/png');

const bigJpeg = make.jpeg(1024, 768, { padding: 100_000 });
const lateMoov = make.mp4(42.5, { width: 854, height: 480, moovAtEnd: true, mdatBytes: 300_000 });
const longOgg = make.ogg('vorbis', 180.5, 4);

before(async () => {
  server = await startServer({
    '/a.png': serve(make.png(300, 200), { contentType: 'image/png', ranged }),
    '/missing.png': html('<h1>Not found</h1>', {}, 404),
    '/broken.png': (_req, res) => void res.writeHead(500).end('oops'),
    '/slow.png': serve(make.png(10, 10), { contentType: 'image/png', delayMs: 1000 }),
    '/moved.png': (_req, res) => void res.writeHead(302, { location: '/a.png' }).end(),
    '/huge.png': huge,
    '/no-head.png': (req: IncomingMessage, res: ServerResponse) => {
      methods.push(req.method ?? '');
      if (req.method === 'HEAD') return void res.writeHead(405).end();
      return serve(make.gif(64, 32), { contentType: 'image/gif' })(req, res);
    },
    '/soft-404.png': html('<!doctype html><title>Page not found</title>'),
    '/mislabelled.png': serve(make.png(5, 7), { contentType: 'text/html; charset=utf-8' }),
    '/labelled.png': serve(make.webpLossy(30, 20), { contentType: 'image/webp' }),
    '/octets': serve(make.jpeg(16, 9), { contentType: 'application/octet-stream' }),
    '/mystery.png': serve(Buffer.from('not an image, but the server says nothing'), {}),
    '/chunked.gif': serve(make.gif(8, 8), { contentType: 'image/gif', chunked: true, ranges: false }),
    '/chunked-big.mp3': serve(make.mp3(400), { contentType: 'audio/mpeg', chunked: true, ranges: false }),
    '/empty.png': serve(Buffer.alloc(0), { contentType: 'image/png' }),
    '/big.jpg': serve(bigJpeg, { contentType: 'image/jpeg', ranged }),
    '/late.mp4': serve(lateMoov, { contentType: 'video/mp4', ranged }),
    '/late-norange.mp4': serve(lateMoov, { contentType: 'video/mp4', ranges: false }),
    '/long.ogg': serve(longOgg, { contentType: 'audio/ogg', ranged }),
    '/song.mp3': serve(make.mp3(1000, { id3: 300 }), { contentType: 'audio/mpeg' }),
    '/voice.wav': serve(make.wav(2.25), { contentType: 'audio/wav' }),
    '/clip.webm': serve(make.webm(75.2, 1280, 720), { contentType: 'video/webm' }),
    '/icon-gz.svg': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'image/svg+xml', 'content-encoding': 'gzip' })
        .end(gzipSync('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"/>')),
    '/icon.svg': serve(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"/>'), { contentType: 'image/svg+xml' }),
  });
});
after(() => server.close());

const budget = (ms = 3000): Budget => new Budget(ms);

describe('reachable', () => {
  test('a live image: type, size and dimensions from one ranged GET', async () => {
    ranged.length = 0;
    const file = make.png(300, 200);
    const media = await probe(`${server.url}/a.png`, 'image', budget(), deps());
    assert.deepEqual(media, {
      url: `${server.url}/a.png`,
      type: 'png',
      size: file.length,
      size_pretty: `${file.length} B`,
      width: 300,
      height: 200,
    });
    assert.deepEqual(ranged, ['bytes=0-65535']);
  });

  test('a redirect that ends in 200 is reachable, and keeps the address the page gave', async () => {
    const media = await probe(`${server.url}/moved.png`, 'image', budget(), deps());
    assert.equal(media?.url, `${server.url}/moved.png`);
    assert.equal(media?.width, 300);
  });

  test('a server that refuses HEAD (405) is no special case: no HEAD is ever sent', async () => {
    methods.length = 0;
    const media = await probe(`${server.url}/no-head.png`, 'logo', budget(), deps());
    assert.deepEqual([media?.type, media?.width, media?.height], ['gif', 64, 32]);
    assert.deepEqual(methods, ['GET']);
  });

  test('SVG from its viewBox', async () => {
    const media = await probe(`${server.url}/icon.svg`, 'logo', budget(), deps());
    assert.deepEqual([media?.type, media?.width, media?.height], ['svg', 32, 32]);
  });

  test('a gzip-encoded SVG is decoded before it is read', async () => {
    const media = await probe(`${server.url}/icon-gz.svg`, 'logo', budget(), deps());
    assert.deepEqual([media?.type, media?.width, media?.height], ['svg', 120, 60]);
  });

  test('a server that ignores Range and sends 50 MB: answered at once, with dimensions, without reading it', async () => {
    const started = performance.now();
    const media = await probe(`${server.url}/huge.png`, 'image', budget(), deps());
    const elapsed = performance.now() - started;
    assert.deepEqual([media?.width, media?.height, media?.size], [4000, 3000, 50 * 1024 * 1024]);
    assert.equal(media?.size_pretty, '52.43 MB');
    assert.ok(elapsed < 1500, `took ${elapsed} ms`);
    // What the server managed to push before the connection closed is socket buffers, not the file.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(huge.written() < 10 * 1024 * 1024, `server wrote ${huge.written()} bytes`);
  });
});

describe('unreachable', () => {
  for (const [name, path] of [
    ['404', '/missing.png'],
    ['500', '/broken.png'],
    ['an HTML page answered with 200 (a soft-404)', '/soft-404.png'],
    ['an empty file', '/empty.png'],
  ] as const) {
    test(name, async () => assert.equal(await probe(`${server.url}${path}`, 'image', budget(), deps()), null));
  }

  test('connection refused', async () => {
    const gone = await startServer();
    const url = `${gone.url}/a.png`;
    await gone.close();
    assert.equal(await probe(url, 'image', budget(), deps()), null);
  });

  test('a name that does not resolve', async () => {
    const resolver = async (hostname: string): Promise<never> => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    assert.equal(await probe('http://media.invalid.example/a.png', 'image', budget(), deps({ resolver })), null);
  });

  test('a server slower than the deadline: null when the deadline passes, not when the server answers', async () => {
    const started = performance.now();
    assert.equal(await probe(`${server.url}/slow.png`, 'image', budget(300), deps()), null);
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 250 && elapsed < 1500, `took ${elapsed} ms`);
  });

  test('with a strict policy a loopback URL is refused and the server sees no request', async () => {
    const hits = server.hits.length;
    const strict = deps({ policy: AddressPolicy.fromSetting('') });
    assert.equal(await probe(`${server.url}/a.png`, 'image', budget(), strict), null);
    const named = deps({ policy: AddressPolicy.fromSetting(''), resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    assert.equal(await probe(`http://cdn.example:${server.port}/a.png`, 'image', budget(), named), null);
    assert.equal(server.hits.length, hits);
  });
});

describe('type and size', () => {
  test('the content type names the type, over the extension', async () => {
    const media = await probe(`${server.url}/labelled.png`, 'image', budget(), deps());
    assert.deepEqual([media?.type, media?.width, media?.height], ['webp', 30, 20]);
  });

  test('a generic content type: the bytes name it', async () => {
    const media = await probe(`${server.url}/octets`, 'image', budget(), deps());
    assert.deepEqual([media?.type, media?.width, media?.height], ['jpg', 16, 9]);
  });

  test('image bytes labelled text/html are an image all the same', async () => {
    const media = await probe(`${server.url}/mislabelled.png`, 'image', budget(), deps());
    assert.deepEqual([media?.type, media?.width, media?.height], ['png', 5, 7]);
  });

  test('nothing to go on but the extension', async () => {
    const media = await probe(`${server.url}/mystery.png`, 'image', budget(), deps());
    assert.equal(media?.type, 'png');
    assert.equal(media?.width, undefined);
  });

  test('no content-length: the bytes counted when the body ended within the read', async () => {
    const media = await probe(`${server.url}/chunked.gif`, 'image', budget(), deps());
    assert.equal(media?.size, make.gif(8, 8).length);
  });

  test('no content-length and more than the read: size unknown, left out', async () => {
    const media = await probe(`${server.url}/chunked-big.mp3`, 'audio', budget(), deps());
    assert.equal(media?.type, 'mp3');
    assert.equal('size' in (media ?? {}), false);
  });
});

describe('reading past the head, only where a server honours ranges', () => {
  test('a JPEG whose frame header follows 100 KB of APP segments', async () => {
    ranged.length = 0;
    const media = await probe(`${server.url}/big.jpg`, 'image', budget(), deps());
    assert.deepEqual([media?.width, media?.height, media?.size], [1024, 768, bigJpeg.length]);
    assert.deepEqual(ranged, ['bytes=0-65535', `bytes=65536-${bigJpeg.length - 1}`]);
  });

  test('an MP4 with its moov after mdat: the moov read in a second ranged GET', async () => {
    ranged.length = 0;
    const media = await probe(`${server.url}/late.mp4`, 'video', budget(), deps());
    assert.deepEqual(media, {
      url: `${server.url}/late.mp4`,
      type: 'mp4',
      size: lateMoov.length,
      size_pretty: '300.36 kB',
      width: 854,
      height: 480,
      duration: 42.5,
      duration_pretty: '43s',
    });
    assert.equal(ranged.length, 2);
  });

  test('the same MP4 from a server without ranges: reachable, sized, no duration', async () => {
    const media = await probe(`${server.url}/late-norange.mp4`, 'video', budget(), deps());
    assert.deepEqual([media?.type, media?.size, media?.duration], ['mp4', lateMoov.length, undefined]);
  });

  test('an Ogg file timed by its last page, read from the tail', async () => {
    ranged.length = 0;
    const media = await probe(`${server.url}/long.ogg`, 'audio', budget(), deps());
    assert.deepEqual([media?.type, media?.duration, media?.duration_pretty], ['ogg', 180.5, '3m']);
    const tail = longOgg.length - 65 * 1024;
    assert.deepEqual(ranged, ['bytes=0-65535', `bytes=${tail}-${longOgg.length - 1}`]);
  });
});

describe('durations over HTTP', () => {
  test('MP3 behind an ID3 tag (constant bitrate)', async () => {
    const media = await probe(`${server.url}/song.mp3`, 'audio', budget(), deps());
    assert.equal(media?.type, 'mp3');
    assert.equal(media?.duration, 26.0625);
    assert.equal(media?.duration_pretty, '26s');
  });

  test('WAV', async () => {
    const media = await probe(`${server.url}/voice.wav`, 'audio', budget(), deps());
    assert.deepEqual([media?.type, media?.duration, media?.duration_pretty], ['wav', 2.25, '2s']);
  });

  test('WebM, with its picture size', async () => {
    const media = await probe(`${server.url}/clip.webm`, 'video', budget(), deps());
    assert.deepEqual([media?.type, media?.duration, media?.width, media?.height, media?.duration_pretty], ['webm', 75.2, 1280, 720, '1m']);
  });
});

describe('an answer about the server’s moment is not lasting (the ping cache does not keep it)', () => {
  let moment: TestServer;
  before(async () => {
    moment = await startServer({
      '/busy': (_req, res) => void res.writeHead(429, { 'retry-after': '30' }).end(),
      '/looping': (_req, res) => void res.writeHead(508, { 'content-type': 'application/json' }).end('{"status":"error","code":"ELOOP"}'),
      '/down': (_req, res) => void res.writeHead(503).end(),
      '/gone': (_req, res) => void res.writeHead(404).end(),
      '/silent': () => undefined,
    });
  });
  after(() => moment.close());

  test('429, 508 and 503 are unreachable for now; a 404 is unreachable for good', async () => {
    for (const path of ['/busy', '/looping', '/down']) {
      assert.deepEqual(await probeOutcome(`${moment.url}${path}`, 'image', budget(), deps()), { media: null, lasting: false }, path);
    }
    assert.deepEqual(await probeOutcome(`${moment.url}/gone`, 'image', budget(), deps()), { media: null, lasting: true });
  });

  test('a probe that used its whole own time limit (a nested Glance still rendering, say) is not lasting', async () => {
    const outcome = await probeOutcome(`${moment.url}/silent`, 'image', budget(URL_TIME_LIMIT_MS + 2000), deps());
    assert.deepEqual(outcome, { media: null, lasting: false });
  });
});
