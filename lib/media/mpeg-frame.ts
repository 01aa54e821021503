/**
 * The MPEG audio frame header (ISO/IEC 11172-3 §2.4.2.3, with MPEG-2 and 2.5's rates): what tells an MP3 stream
 * from other bytes (sniff.ts) and what its duration is read from (lib/ping/av/mp3.ts).
 */
export interface FrameHeader {
  /** 1, 2 or 2.5 */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  /** bits per second */
  bitrate: number;
  sampleRate: number;
  mono: boolean;
  /** bytes, header included */
  length: number;
  samples: number;
}

// kbit/s by [version 1 | 2 and 2.5][layer - 1][index]; index 0 ("free") and 15 (bad) are not usable.
const BITRATES = [
  [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
] as const;
const SAMPLE_RATES = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 2.5: [11025, 12000, 8000] } as const;
const VERSIONS = [2.5, undefined, 2, 1] as const;
const LAYERS = [undefined, 3, 2, 1] as const;

/** The MPEG audio frame header at `at`, or undefined when those bytes are not one. */
export function frameHeader(bytes: Buffer, at: number): FrameHeader | undefined {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const version = VERSIONS[(bytes[at + 1]! >> 3) & 0x03];
  const layer = LAYERS[(bytes[at + 1]! >> 1) & 0x03];
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 0x03;
  if (!version || !layer || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const bitrate = BITRATES[version === 1 ? 0 : 1][layer - 1]![bitrateIndex]! * 1000;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const padding = (bytes[at + 2]! >> 1) & 0x01;
  const samples = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const length =
    layer === 1 ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4 : Math.floor((samples / 8) * bitrate / sampleRate) + padding;
  return { version, layer, bitrate, sampleRate, mono: bytes[at + 3]! >> 6 === 0x03, length, samples };
}
