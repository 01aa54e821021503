import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Budget } from '../../lib/time/budget.ts';
import type { MediaField } from '../../lib/data/fields.ts';
import { PingCache, pingMedia } from '../../lib/ping/index.ts';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';
import * as make from './fixtures.ts';
import { deps, serve } from './helpers.ts';

let server: TestServer;
const ALL: Record<MediaField, boolean> = { image: true, logo: true, audio: true, video: true };

/** Answers after `ms`, then with `route`. */
const later =
  (ms: number, route: Route): Route =>
  async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route(req, res);
  };
const hangs: Route = () => new Promise(() => {});

before(async () => {
  server = await startServer({
    '/og.png': serve(make.png(1200, 630), { contentType: 'image/png' }),
    '/gone.png': html('gone', {}, 404),
    '/error.png': (_req, res) => void res.writeHead(503).end(),
    '/favicon.ico': serve(make.ico([16, 32]), { contentType: 'image/x-icon' }),
    '/song.mp3': serve(make.mp3(100, { xing: 100 }), { contentType: 'audio/mpeg' }),
    '/movie.mp4': serve(make.mp4(10, { width: 320, height: 240 }), { contentType: 'video/mp4' }),
    '/slow-image.png': later(500, serve(make.png(1, 1), { contentType: 'image/png' })),
    '/slow-logo.png': later(500, serve(make.png(2, 2), { contentType: 'image/png' })),
    '/slow-audio.mp3': later(500, serve(make.mp3(10), { contentType: 'audio/mpeg' })),
    '/slow-video.mp4': later(500, serve(make.mp4(1), { contentType: 'video/mp4' })),
    '/slower-but-first.png': later(1200, serve(make.png(3, 3), { contentType: 'image/png' })),
    '/hangs.png': hangs,
  });
});
after(() => server.close());

const url = (path: string): string => `${server.url}${path}`;
const hitsOf = (path: string): number => server.hits.filter((hit) => hit === path).length;

describe('each field: the first reachable candidate', () => {
  test('every field enriched at once', async () => {
    const result = await pingMedia(
      { image: [url('/og.png')], logo: [url('/favicon.ico')], audio: [url('/song.mp3')], video: [url('/movie.mp4')] },
      ALL,
      new Budget(3000),
      deps(),
    );
    assert.deepEqual([result.image?.width, result.image?.height], [1200, 630]);
    assert.deepEqual([result.logo?.type, result.logo?.width], ['ico', 32]);
    assert.deepEqual([result.audio?.type, result.audio?.duration_pretty], ['mp3', '3s']);
    assert.deepEqual([result.video?.duration, result.video?.width, result.video?.height], [10, 320, 240]);
  });

  test('a dead first candidate gives way to the second', async () => {
    const result = await pingMedia({ image: [url('/gone.png'), url('/og.png')] }, ALL, new Budget(3000), deps());
    assert.equal(result.image?.url, url('/og.png'));
  });

  test('logo: declared icons dead, the origin /favicon.ico answers', async () => {
    const result = await pingMedia({ logo: [url('/gone.png'), url('/error.png'), url('/favicon.ico')] }, ALL, new Budget(3000), deps());
    assert.deepEqual([result.logo?.url, result.logo?.type], [url('/favicon.ico'), 'ico']);
  });

  test('all dead, or none at all: null; fields not asked about are left out', async () => {
    const result = await pingMedia({ image: [url('/gone.png'), url('/error.png')], logo: [] }, ALL, new Budget(3000), deps());
    assert.deepEqual(result, { image: null, logo: null });
  });

  test('order decides: a slow first candidate that answers wins over a fast second', async () => {
    const result = await pingMedia({ image: [url('/slower-but-first.png'), url('/og.png')] }, ALL, new Budget(3000), deps());
    assert.equal(result.image?.url, url('/slower-but-first.png'));
  });

  test('a candidate that hangs: the next one, probed beside it after a second, answers when the budget ends', async () => {
    const started = performance.now();
    const result = await pingMedia({ image: [url('/hangs.png'), url('/og.png')] }, ALL, new Budget(1500), deps());
    const elapsed = performance.now() - started;
    assert.equal(result.image?.url, url('/og.png'));
    assert.ok(elapsed < 1800, `took ${elapsed} ms`);
  });
});

describe('ping flags', () => {
  test('false: the first candidate as extracted, typed by its extension, and no request made', async () => {
    const before = server.hits.length;
    const result = await pingMedia(
      { image: [url('/gone.png'), url('/og.png')], video: [url('/clip.MP4?x=1')], audio: [] },
      { image: false, logo: true, audio: false, video: false },
      new Budget(3000),
      deps(),
    );
    assert.deepEqual(result, { image: { url: url('/gone.png'), type: 'png' }, video: { url: url('/clip.MP4?x=1'), type: 'mp4' }, audio: null });
    assert.equal(server.hits.length, before);
  });
});

describe('time', () => {
  test('probes run concurrently: four fields of 500 ms each take about 500 ms', async () => {
    const started = performance.now();
    const result = await pingMedia(
      { image: [url('/slow-image.png')], logo: [url('/slow-logo.png')], audio: [url('/slow-audio.mp3')], video: [url('/slow-video.mp4')] },
      ALL,
      new Budget(5000),
      deps(),
    );
    const elapsed = performance.now() - started;
    assert.ok(Object.values(result).every(Boolean));
    assert.ok(elapsed < 1200, `took ${elapsed} ms`);
  });

  test('the call never outlives its budget', async () => {
    const started = performance.now();
    const result = await pingMedia({ image: [url('/hangs.png')], logo: [url('/hangs.png?2')] }, ALL, new Budget(400), deps());
    const elapsed = performance.now() - started;
    assert.deepEqual(result, { image: null, logo: null });
    assert.ok(elapsed < 800, `took ${elapsed} ms`);
  });
});

describe('cache', () => {
  test('a second call makes no request, for reachable and unreachable URLs alike', async () => {
    const cache = new PingCache();
    const candidates = { image: [url('/gone.png?c1'), url('/og.png?c1')] };
    const first = await pingMedia(candidates, ALL, new Budget(3000), deps({ cache }));
    const hits = [hitsOf('/gone.png?c1'), hitsOf('/og.png?c1')];
    const second = await pingMedia(candidates, ALL, new Budget(3000), deps({ cache }));
    assert.deepEqual(second, first);
    assert.deepEqual([hitsOf('/gone.png?c1'), hitsOf('/og.png?c1')], hits);
    assert.deepEqual(hits, [1, 1]);
  });

  test('concurrent calls share one probe', async () => {
    const cache = new PingCache();
    const candidates = { image: [url('/slow-image.png?c2')] };
    const answers = await Promise.all([1, 2, 3].map(() => pingMedia(candidates, ALL, new Budget(3000), deps({ cache }))));
    assert.ok(answers.every((answer) => answer.image?.width === 1));
    assert.equal(hitsOf('/slow-image.png?c2'), 1);
  });

  test('callers get their own copies of a cached object', async () => {
    const cache = new PingCache();
    const first = await pingMedia({ image: [url('/og.png?c3')] }, ALL, new Budget(3000), deps({ cache }));
    first.image!.palette = ['#fff'];
    const second = await pingMedia({ image: [url('/og.png?c3')] }, ALL, new Budget(3000), deps({ cache }));
    assert.equal(second.image?.palette, undefined);
  });

  test('a caller joining a longer probe in flight still ends with its own budget', async () => {
    const cache = new PingCache();
    const long = pingMedia({ image: [url('/hangs.png?c4')] }, ALL, new Budget(1500), deps({ cache }));
    const started = performance.now();
    const short = await pingMedia({ image: [url('/hangs.png?c4')] }, ALL, new Budget(200), deps({ cache }));
    assert.equal(short.image, null);
    assert.ok(performance.now() - started < 600);
    assert.equal((await long).image, null);
    assert.equal(hitsOf('/hangs.png?c4'), 1);
  });
});
