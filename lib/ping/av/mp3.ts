/**
 * MP3 duration: past any ID3v2 tags (id3.org, ID3v2.4 §3.1), the first frame either carries a Xing/Info or VBRI
 * header with the frame count (VBR files, and LAME's CBR files too), or the stream is constant-bitrate and its
 * length in bytes over the bitrate gives the time.
 */
import { frameHeader, type FrameHeader } from '../../media/mpeg-frame.ts';
import type { ByteSource, Facts } from '../source.ts';

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
