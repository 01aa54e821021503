/**
 * MP3 duration: past any ID3v2 tags (id3.org, ID3v2.4 §3.1), the first frame either carries a Xing/Info or VBRI
 * header with the frame count (VBR files, and LAME's CBR files too), or the stream is constant-bitrate and its
 * length in bytes over the bitrate gives the time.
 */
import type { ByteSource, Facts } from '../source.ts';

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

/** ID3v2 sizes are "syncsafe": 7 bits per byte. */
const syncsafe = (bytes: Buffer, at: number): number =>
  ((bytes[at]! & 0x7f) << 21) | ((bytes[at + 1]! & 0x7f) << 14) | ((bytes[at + 2]! & 0x7f) << 7) | (bytes[at + 3]! & 0x7f);

/** How far past the tags a first frame is looked for (encoders may pad with zeros). */
const SYNC_WINDOW = 4096;
/** Enough for the sync search plus the first frame (the largest, MPEG-1 Layer II at 384 kbit/s and 32 kHz, is 1729 B). */
const READ_BYTES = SYNC_WINDOW + 2048;

/** The bytes where the audio starts: after every ID3v2 tag (header 10 bytes, footer 10 more when flagged). */
async function audioBytes(source: ByteSource): Promise<{ start: number; bytes: Buffer } | undefined> {
  let start = 0;
  for (;;) {
    const bytes = await source.read(start, READ_BYTES);
    if (!bytes || bytes.length < 10) return undefined;
    if (bytes.toString('latin1', 0, 3) !== 'ID3') return { start, bytes };
    start += 10 + syncsafe(bytes, 6) + (bytes[5]! & 0x10 ? 10 : 0);
  }
}

/**
 * The first frame whose successor (when within the bytes) is a frame too: a lone sync pattern in padding or
 * tag data is not enough.
 */
function firstFrame(bytes: Buffer): { at: number; header: FrameHeader } | undefined {
  for (let at = 0; at + 4 <= Math.min(bytes.length, SYNC_WINDOW); at++) {
    const header = frameHeader(bytes, at);
    if (!header) continue;
    const next = at + header.length;
    if (next + 4 > bytes.length || frameHeader(bytes, next)) return { at, header };
  }
  return undefined;
}

/** Frames counted by a Xing/Info header (after the side information) or a VBRI header (always 32 bytes past the frame header). */
function frameCount(frame: Buffer, header: FrameHeader): number | undefined {
  const side = header.version === 1 ? (header.mono ? 17 : 32) : header.mono ? 9 : 17;
  const xing = 4 + side;
  const tag = frame.toString('latin1', xing, xing + 4);
  if ((tag === 'Xing' || tag === 'Info') && frame.length >= xing + 12 && frame.readUInt32BE(xing + 4) & 0x01) {
    return frame.readUInt32BE(xing + 8);
  }
  if (frame.toString('latin1', 36, 40) === 'VBRI' && frame.length >= 36 + 18) return frame.readUInt32BE(36 + 14);
  return undefined;
}

export async function mp3Facts(source: ByteSource): Promise<Facts> {
  const audio = await audioBytes(source);
  const found = audio && firstFrame(audio.bytes);
  if (!audio || !found) return {};
  const { start, bytes } = audio;
  const { at, header } = found;
  const frames = frameCount(bytes.subarray(at, at + header.length), header);
  if (frames) return { duration: (frames * header.samples) / header.sampleRate };
  if (source.total === undefined) return {};
  return { duration: ((source.total - start - at) * 8) / header.bitrate };
}
