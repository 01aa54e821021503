/**
 * Media files built byte by byte with known true dimensions and durations, laid out as each format's
 * specification says (the parsers under test never see a file they could have been written against).
 */
import { PNG } from 'pngjs';

const u16be = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff]);
const u16le = (n: number): Buffer => Buffer.from([n & 0xff, n >> 8]);
const u32be = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u32le = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const text = (s: string): Buffer => Buffer.from(s, 'latin1');

// ---- images -------------------------------------------------------------------------------------------------

export const png = (width: number, height: number): Buffer => PNG.sync.write(new PNG({ width, height }));

/** A PNG's signature and IHDR claiming a size its (absent) pixels never had: the start of a large file. */
export function pngHeader(width: number, height: number): Buffer {
  const head = png(1, 1).subarray(0, 33);
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return head;
}

export const gif = (width: number, height: number): Buffer =>
  Buffer.concat([text('GIF89a'), u16le(width), u16le(height), Buffer.from([0, 0, 0]), text(';')]);

export function bmp(width: number, height: number): Buffer {
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(-height, 22); // top-down rows: a negative height
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  return header;
}

/** One ICONDIR entry per size; 0 means 256. */
export function ico(sizes: number[]): Buffer {
  const dir = Buffer.concat([u16le(0), u16le(1), u16le(sizes.length)]);
  const entries = sizes.map((size) => {
    const entry = Buffer.alloc(16);
    entry[0] = size;
    entry[1] = size;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    return entry;
  });
  return Buffer.concat([dir, ...entries]);
}

function riff(form: string, chunks: Buffer[]): Buffer {
  const body = Buffer.concat([text(form), ...chunks]);
  return Buffer.concat([text('RIFF'), u32le(body.length), body]);
}
const chunk = (id: string, body: Buffer): Buffer =>
  Buffer.concat([text(id), u32le(body.length), body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);

/** Lossy: frame tag, start code 9d 01 2a, then 14-bit width and height. */
export const webpLossy = (width: number, height: number): Buffer =>
  riff('WEBP', [chunk('VP8 ', Buffer.concat([Buffer.from([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a]), u16le(width), u16le(height), Buffer.alloc(8)]))]);

/** Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each. */
export function webpLossless(width: number, height: number): Buffer {
  const bits = (width - 1) | ((height - 1) << 14);
  return riff('WEBP', [chunk('VP8L', Buffer.concat([Buffer.from([0x2f]), u32le(bits), Buffer.alloc(8)]))]);
}

/** Extended: flags, then the canvas width-1 and height-1 in 24 bits each. */
export function webpExtended(width: number, height: number): Buffer {
  const canvas = Buffer.alloc(10);
  canvas.writeUIntLE(width - 1, 4, 3);
  canvas.writeUIntLE(height - 1, 7, 3);
  return riff('WEBP', [chunk('VP8X', canvas), chunk('VP8L', Buffer.alloc(10))]);
}

export function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32be(8 + body.length), text(type), body]);
}
const fullBox = (type: string, version: number, ...parts: Buffer[]): Buffer =>
  box(type, Buffer.from([version, 0, 0, 0]), ...parts);

/** AVIF: ftyp avif, then meta › iprp › ipco › ispe (image spatial extents). */
export const avif = (width: number, height: number): Buffer =>
  Buffer.concat([
    box('ftyp', text('avif'), u32be(0), text('avifmif1miaf')),
    fullBox('meta', 0, fullBox('hdlr', 0, u32be(0), text('pict'), Buffer.alloc(13)), box('iprp', box('ipco', fullBox('ispe', 0, u32be(width), u32be(height))))),
  ]);

/** JPEG: SOI, JFIF or EXIF (with an orientation), optional padding segments, DQT, SOF0 (or SOF2), EOI. */
export function jpeg(width: number, height: number, options: { orientation?: number; padding?: number; progressive?: boolean } = {}): Buffer {
  const segment = (marker: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([0xff, marker]), u16be(body.length + 2), body]);
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  if (options.orientation) {
    const ifd = Buffer.concat([u16be(1), u16be(0x0112), u16be(3), u32be(1), u16be(options.orientation), u16be(0), u32be(0)]);
    parts.push(segment(0xe1, Buffer.concat([text('Exif\0\0'), text('MM\0*'), u32be(8), ifd])));
  } else {
    parts.push(segment(0xe0, Buffer.concat([text('JFIF\0'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0])])));
  }
  // Large APPn blocks (EXIF thumbnails, ICC profiles) can push the frame header past the first 64 KB.
  for (let left = options.padding ?? 0; left > 0; left -= 65000) parts.push(segment(0xe2, Buffer.alloc(Math.min(left, 65000))));
  parts.push(segment(0xdb, Buffer.alloc(65)));
  parts.push(segment(options.progressive ? 0xc2 : 0xc0, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])])));
  parts.push(Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

// ---- audio / video ------------------------------------------------------------------------------------------

/** An ID3v2.4 tag of `size` body bytes (syncsafe size). */
export function id3(size: number): Buffer {
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
  return Buffer.concat([header, Buffer.alloc(size)]);
}

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames of 1152 samples. */
export const MP3_FRAME_BYTES = 417;
const MP3_HEADER = Buffer.from([0xff, 0xfb, 0x90, 0x00]);

function mp3Frame(xingFrames?: number): Buffer {
  const frame = Buffer.alloc(MP3_FRAME_BYTES);
  MP3_HEADER.copy(frame);
  if (xingFrames !== undefined) {
    // Stereo MPEG-1: 32 bytes of side information, so the Xing header sits at 4 + 32.
    frame.write('Xing', 36, 'latin1');
    frame.writeUInt32BE(1, 40);
    frame.writeUInt32BE(xingFrames, 44);
  }
  return frame;
}

/** `frames` constant-bitrate frames, optionally led by a Xing frame that counts `xing` frames, and an ID3 tag. */
export function mp3(frames: number, options: { xing?: number; id3?: number } = {}): Buffer {
  const parts = [];
  if (options.id3 !== undefined) parts.push(id3(options.id3));
  if (options.xing !== undefined) parts.push(mp3Frame(options.xing));
  for (let i = 0; i < frames; i++) parts.push(mp3Frame());
  return Buffer.concat(parts);
}

const mvhd = (timescale: number, duration: number): Buffer =>
  fullBox('mvhd', 0, u32be(0), u32be(0), u32be(timescale), u32be(duration), Buffer.alloc(80));

function tkhd(width: number, height: number): Buffer {
  const fixed = Buffer.alloc(8);
  fixed.writeUInt32BE(width * 65536, 0);
  fixed.writeUInt32BE(height * 65536, 4);
  return fullBox('tkhd', 0, Buffer.alloc(20), Buffer.alloc(16), Buffer.alloc(36), fixed);
}

/** MP4 of `seconds` at timescale 1000, an audio track then a video track, moov before or after mdat. */
export function mp4(seconds: number, options: { width?: number; height?: number; moovAtEnd?: boolean; mdatBytes?: number; brand?: string } = {}): Buffer {
  const ftyp = box('ftyp', text(options.brand ?? 'isom'), u32be(512), text('isomiso2avc1mp41'));
  const traks = [box('trak', tkhd(0, 0))];
  if (options.width && options.height) traks.push(box('trak', tkhd(options.width, options.height)));
  const moov = box('moov', mvhd(1000, Math.round(seconds * 1000)), ...traks);
  const mdat = box('mdat', Buffer.alloc(options.mdatBytes ?? 1000));
  return Buffer.concat(options.moovAtEnd ? [ftyp, mdat, moov] : [ftyp, moov, mdat]);
}

function ebmlId(id: number): Buffer {
  const bytes = [];
  for (let value = id; value > 0; value = Math.floor(value / 256)) bytes.unshift(value & 0xff);
  return Buffer.from(bytes);
}
/** An EBML element with an 8-byte size (any length is valid, RFC 8794 §6). */
function ebml(id: number, body: Buffer): Buffer {
  const size = Buffer.alloc(8);
  size.writeUIntBE(body.length, 2, 6);
  size[0] = 0x01;
  return Buffer.concat([ebmlId(id), size, body]);
}
const ebmlUint = (id: number, value: number): Buffer => ebml(id, u32be(value));
function ebmlFloat(id: number, value: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeDoubleBE(value);
  return ebml(id, body);
}

/** WebM with Info › Duration in ms (TimecodeScale 1 ms), a video track, a Segment of unknown size. */
export function webm(seconds: number, width: number, height: number): Buffer {
  const header = ebml(0x1a45dfa3, Buffer.concat([ebml(0x4282, text('webm')), ebmlUint(0x4287, 4)]));
  const info = ebml(0x1549a966, Buffer.concat([ebmlUint(0x2ad7b1, 1_000_000), ebmlFloat(0x4489, seconds * 1000)]));
  const video = ebml(0xe0, Buffer.concat([ebmlUint(0xb0, width), ebmlUint(0xba, height)]));
  const tracks = ebml(0x1654ae6b, ebml(0xae, Buffer.concat([ebmlUint(0xd7, 1), ebmlUint(0x83, 1), video])));
  const cluster = ebml(0x1f43b675, Buffer.alloc(100));
  const segmentHeader = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  return Buffer.concat([header, segmentHeader, info, tracks, cluster]);
}

function oggPage(serial: number, sequence: number, granule: bigint, flags: number, body: Buffer): Buffer {
  const lacing = [];
  let left = body.length;
  for (; left >= 255; left -= 255) lacing.push(255);
  lacing.push(left);
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  return Buffer.concat([header, Buffer.from(lacing), body]);
}

/**
 * An Ogg file whose last page ends at `seconds`: Vorbis at 44.1 kHz or Opus (48 kHz, pre-skip 312), with
 * `fillerPages` pages of 40 000 bytes in between (so the tail lies past the first 64 KB).
 */
export function ogg(codec: 'vorbis' | 'opus', seconds: number, fillerPages = 0): Buffer {
  const serial = 0x1234;
  const rate = codec === 'vorbis' ? 44100 : 48000;
  const skip = codec === 'opus' ? 312 : 0;
  const id =
    codec === 'vorbis'
      ? Buffer.concat([Buffer.from([1]), text('vorbis'), u32le(0), Buffer.from([2]), u32le(rate), Buffer.alloc(12), Buffer.from([0xb8, 1])])
      : Buffer.concat([text('OpusHead'), Buffer.from([1, 2]), u16le(skip), u32le(48000), Buffer.from([0, 0, 0])]);
  const pages = [oggPage(serial, 0, 0n, 0x02, id), oggPage(serial, 1, 0n, 0, Buffer.alloc(100))];
  const end = BigInt(Math.round(seconds * rate) + skip);
  for (let i = 0; i < fillerPages; i++) pages.push(oggPage(serial, 2 + i, (end * BigInt(i + 1)) / BigInt(fillerPages + 1), 0, Buffer.alloc(40_000)));
  pages.push(oggPage(serial, 2 + fillerPages, end, 0x04, Buffer.alloc(500)));
  return Buffer.concat(pages);
}

/** PCM WAV, 44.1 kHz stereo 16-bit (176 400 bytes a second). */
export function wav(seconds: number, options: { streaming?: boolean } = {}): Buffer {
  const fmt = Buffer.concat([u16le(1), u16le(2), u32le(44100), u32le(176400), u16le(4), u16le(16)]);
  const samples = Buffer.alloc(Math.round(seconds * 176400));
  const data = Buffer.concat([text('data'), u32le(options.streaming ? 0xffffffff : samples.length), samples]);
  return riff('WAVE', [chunk('fmt ', fmt), data]);
}

/** FLAC STREAMINFO: 20-bit rate, 3-bit channels-1, 5-bit bits-1, 36-bit total samples. */
export function flac(seconds: number): Buffer {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  const packed = (44100n << 44n) | (1n << 41n) | (15n << 36n) | BigInt(Math.round(seconds * 44100));
  info.writeBigUInt64BE(packed, 10);
  return Buffer.concat([text('fLaC'), Buffer.from([0x80, 0, 0, 34]), info, Buffer.alloc(100)]);
}
