/**
 * What a file is, from its first bytes (the signatures the WHATWG MIME Sniffing standard and the formats' own
 * specifications give). Servers label media loosely (`application/octet-stream`, no type at all), and the
 * parsers must only ever see bytes of their own format, so the bytes decide which parser runs.
 */
import { frameHeader } from './mpeg-frame.ts';
import { kindOfExtension } from './types.ts';

/** Extensions this module can name; `html` marks a page where a media file was expected. */
export type Sniffed =
  | 'png' | 'jpg' | 'gif' | 'webp' | 'bmp' | 'ico' | 'avif' | 'heic' | 'tiff' | 'svg'
  | 'mp3' | 'aac' | 'mp4' | 'm4a' | 'mov' | 'webm' | 'mkv' | 'ogg' | 'opus' | 'ogv' | 'wav' | 'flac'
  | 'html';

const ascii = (bytes: Buffer, start: number, end: number): string => bytes.toString('latin1', start, end);

/** ISO BMFF major brands (the `ftyp` box) → extension; anything else with an ftyp is MP4. */
const BRANDS: Readonly<Record<string, Sniffed>> = {
  'qt  ': 'mov',
  'M4A ': 'm4a',
  'M4B ': 'm4a',
  'M4P ': 'm4a',
  avif: 'avif',
  avis: 'avif',
  heic: 'heic',
  heix: 'heic',
  mif1: 'heic',
  msf1: 'heic',
};

/** The major brand decides, except that AVIF files may carry the generic HEIF one and list `avif` as compatible. */
function sniffBrand(bytes: Buffer): Sniffed {
  const brand = BRANDS[ascii(bytes, 8, 12)] ?? 'mp4';
  if (brand !== 'heic') return brand;
  const end = Math.min(bytes.readUInt32BE(0), bytes.length);
  for (let at = 16; at + 4 <= end; at += 4) if (ascii(bytes, at, at + 4) === 'avif') return 'avif';
  return brand;
}

/** Old QuickTime files open straight with one of these atoms, without an ftyp. */
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide']);

/** BMP info-header sizes (BITMAPCOREHEADER … BITMAPV5HEADER): "BM" alone is too weak a signature. */
const BMP_HEADERS = new Set([12, 40, 52, 56, 64, 108, 124]);

function sniffOgg(bytes: Buffer): Sniffed {
  // The first page's first packet names the codec of the stream that opens the file (RFC 7845, Vorbis I §4.2).
  const segments = bytes[26] ?? 0;
  const packet = ascii(bytes, 27 + segments, 27 + segments + 8);
  if (packet.startsWith('OpusHead')) return 'opus';
  if (packet.startsWith('\x80theora')) return 'ogv';
  return 'ogg';
}

/** Markup: an SVG root before any HTML root, or an HTML document (usually a soft-404 page). */
function sniffMarkup(bytes: Buffer): Sniffed | undefined {
  const text = bytes.toString('utf8', 0, Math.min(bytes.length, 4096)).replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('<')) return undefined;
  const svg = text.search(/<svg[\s>/]/i);
  const html = text.search(/<(!doctype\s+html|html|head|body)[\s>]/i);
  if (svg !== -1 && (html === -1 || svg < html)) return 'svg';
  return html !== -1 ? 'html' : undefined;
}

export function sniff(bytes: Buffer): Sniffed | undefined {
  if (bytes.length < 4) return undefined;
  const four = ascii(bytes, 0, 4);
  if (bytes.readUInt32BE(0) === 0x89504e47) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (four === 'GIF8') return 'gif';
  if (four === 'RIFF') {
    const form = ascii(bytes, 8, 12);
    if (form === 'WEBP') return 'webp';
    if (form === 'WAVE') return 'wav';
    return undefined;
  }
  if (four === 'OggS') return sniffOgg(bytes);
  if (four === 'fLaC') return 'flac';
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return ascii(bytes, 0, 64).includes('webm') ? 'webm' : 'mkv';
  if (ascii(bytes, 4, 8) === 'ftyp') return sniffBrand(bytes);
  if (QUICKTIME_ATOMS.has(ascii(bytes, 4, 8))) return 'mov';
  if (four === 'II*\0' || four === 'MM\0*') return 'tiff';
  if (bytes.length >= 18 && four.startsWith('BM') && BMP_HEADERS.has(bytes.readUInt32LE(14))) return 'bmp';
  // ICONDIR: reserved 0, type 1 (icon) or 2 (cursor), at least one image.
  if (bytes.readUInt16LE(0) === 0 && [1, 2].includes(bytes.readUInt16LE(2)) && bytes.length >= 6 && bytes.readUInt16LE(4) > 0) {
    return 'ico';
  }
  if (four.startsWith('ID3') || frameHeader(bytes, 0) !== undefined) return 'mp3';
  // ADTS: the same sync word with layer bits 00.
  if (bytes[0] === 0xff && (bytes[1]! & 0xf6) === 0xf0) return 'aac';
  return sniffMarkup(bytes);
}

export const isImage = (type: Sniffed | undefined): boolean => type !== undefined && kindOfExtension(type) === 'image';
