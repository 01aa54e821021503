import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { avFacts } from '../../lib/ping/av/index.ts';
import { sniff } from '../../lib/media/sniff.ts';
import { HEAD_BYTES, type ByteSource } from '../../lib/ping/source.ts';
import * as make from './fixtures.ts';

/** The file as a probe sees it: its first 64 KB, its size, and further reads counted. */
function source(file: Buffer, options: { ranges?: boolean; sized?: boolean } = {}): ByteSource & { reads: number } {
  const reads = { count: 0 };
  return {
    head: file.subarray(0, HEAD_BYTES),
    total: options.sized === false ? undefined : file.length,
    get reads() {
      return reads.count;
    },
    async read(offset, length) {
      if (offset + length <= HEAD_BYTES) return file.subarray(offset, offset + length);
      if (options.ranges === false) return undefined;
      reads.count += 1;
      return file.subarray(offset, offset + length);
    },
  };
}

async function facts(file: Buffer, options?: { ranges?: boolean; sized?: boolean }) {
  const from = source(file, options);
  const type = sniff(from.head);
  assert.ok(type, 'sniffed');
  return { ...(await avFacts(type, from)), reads: from.reads };
}

const close = (actual: number | undefined, expected: number, digits = 3): void => {
  assert.ok(actual !== undefined, `expected a duration near ${expected}`);
  assert.ok(Math.abs(actual - expected) < 10 ** -digits, `${actual} is not ${expected}`);
};

describe('MP3', () => {
  test('constant bitrate: bytes × 8 ÷ bitrate', async () => {
    const file = make.mp3(300);
    const { duration, reads } = await facts(file);
    close(duration, (300 * make.MP3_FRAME_BYTES * 8) / 128_000);
    assert.equal(reads, 0);
  });

  test('constant bitrate after an ID3v2 tag, which is not audio', async () => {
    const { duration } = await facts(make.mp3(300, { id3: 2000 }));
    close(duration, (300 * make.MP3_FRAME_BYTES * 8) / 128_000);
  });

  test('a Xing header counts the frames: frames × 1152 ÷ 44 100', async () => {
    // The frame count, not the byte count, decides: 5000 frames claimed, only 10 present.
    const { duration } = await facts(make.mp3(10, { xing: 5000 }));
    close(duration, (5000 * 1152) / 44100);
  });

  test('an ID3 tag larger than the head (cover art): one read past it', async () => {
    const { duration, reads } = await facts(make.mp3(20, { id3: 150_000, xing: 2500 }));
    close(duration, (2500 * 1152) / 44100);
    assert.equal(reads, 1);
  });

  test('constant bitrate without a known size: no duration', async () => {
    assert.equal((await facts(make.mp3(300), { sized: false })).duration, undefined);
  });
});

describe('MP4', () => {
  test('moov before mdat: mvhd duration ÷ timescale, and the video track size', async () => {
    const { duration, width, height, reads } = await facts(make.mp4(90.5, { width: 1280, height: 720 }));
    assert.deepEqual({ duration, width, height, reads }, { duration: 90.5, width: 1280, height: 720, reads: 0 });
  });

  test('moov after a large mdat: one ranged read of its start', async () => {
    const { duration, width, height, reads } = await facts(make.mp4(12.345, { width: 640, height: 360, moovAtEnd: true, mdatBytes: 500_000 }));
    assert.deepEqual({ duration, width, height, reads }, { duration: 12.345, width: 640, height: 360, reads: 1 });
  });

  test('moov after mdat on a server without ranges: no duration, no error', async () => {
    const found = await facts(make.mp4(3, { moovAtEnd: true, mdatBytes: 500_000 }), { ranges: false });
    assert.equal(found.duration, undefined);
  });

  test('M4A (audio only): duration, no size', async () => {
    const found = await facts(make.mp4(200.25, { brand: 'M4A ' }));
    assert.equal(found.duration, 200.25);
    assert.equal(found.width, undefined);
  });
});

describe('WebM', () => {
  test('Info Duration × TimecodeScale, and PixelWidth × PixelHeight', async () => {
    const { duration, width, height } = await facts(make.webm(61.5, 1920, 1080));
    assert.deepEqual({ duration, width, height }, { duration: 61.5, width: 1920, height: 1080 });
  });
});

describe('Ogg', () => {
  test('Vorbis: last granule ÷ rate, from the head when the file fits in it', async () => {
    const { duration, reads } = await facts(make.ogg('vorbis', 3.5));
    close(duration, 3.5);
    assert.equal(reads, 0);
  });

  test('Vorbis past the head: one read of the tail', async () => {
    const { duration, reads } = await facts(make.ogg('vorbis', 125.25, 4));
    close(duration, 125.25);
    assert.equal(reads, 1);
  });

  test('Opus: 48 kHz less the pre-skip', async () => {
    close((await facts(make.ogg('opus', 2, 3))).duration, 2);
  });
});

describe('WAV and FLAC', () => {
  test('WAV: data size ÷ byte rate', async () => {
    close((await facts(make.wav(1.5))).duration, 1.5);
  });

  test('WAV written while streaming (data size 0xFFFFFFFF): the file size stands in', async () => {
    close((await facts(make.wav(0.5, { streaming: true }))).duration, 0.5);
  });

  test('FLAC: STREAMINFO samples ÷ rate', async () => {
    close((await facts(make.flac(2.5))).duration, 2.5);
  });
});

test('garbage after a valid signature gives no facts rather than an error', async () => {
  const broken = [make.mp4(1).subarray(0, 20), make.webm(1, 1, 1).subarray(0, 30), make.ogg('vorbis', 1).subarray(0, 40), make.wav(1).subarray(0, 30)];
  for (const file of broken) {
    const { duration } = await facts(file);
    assert.equal(duration, undefined);
  }
});
