/**
 * Ogg duration (RFC 3533): a page's granule position counts samples up to its last packet, so the last page
 * of an audio stream tells the length, divided by the rate its identification header gives (Vorbis I §4.2.2;
 * Opus counts at 48 kHz less the pre-skip, RFC 7845 §4; FLAC-in-Ogg carries STREAMINFO). The last page needs
 * the file's tail: one ranged read. A video file (Theora) is timed by its audio stream.
 */
import type { ByteSource, Facts } from '../source.ts';

interface Page {
  at: number;
  /** Beginning of stream: the page holding a stream's identification header. */
  first: boolean;
  granule: bigint;
  serial: number;
  /** The page's body (its packets). */
  body: Buffer;
  end: number;
}

function pageAt(bytes: Buffer, at: number): Page | undefined {
  if (at + 27 > bytes.length || bytes.toString('latin1', at, at + 4) !== 'OggS' || bytes[at + 4] !== 0) return undefined;
  const segments = bytes[at + 26]!;
  if (at + 27 + segments > bytes.length) return undefined;
  let length = 0;
  for (let i = 0; i < segments; i++) length += bytes[at + 27 + i]!;
  const start = at + 27 + segments;
  return {
    at,
    first: (bytes[at + 5]! & 0x02) !== 0,
    granule: bytes.readBigInt64LE(at + 6),
    serial: bytes.readUInt32LE(at + 14),
    body: bytes.subarray(start, Math.min(start + length, bytes.length)),
    end: start + length,
  };
}

interface Stream {
  serial: number;
  rate: number;
  /** Samples at the start that are not part of the audio (Opus pre-skip). */
  skip: number;
}

/** The audio stream's rate from its identification packet; undefined for a codec without one here. */
function audioStream(page: Page): Stream | undefined {
  const { body, serial } = page;
  const magic = body.toString('latin1', 0, 8);
  if (magic.startsWith('\x01vorbis') && body.length >= 16) return { serial, rate: body.readUInt32LE(12), skip: 0 };
  if (magic === 'OpusHead' && body.length >= 12) return { serial, rate: 48000, skip: body.readUInt16LE(10) };
  // FLAC-in-Ogg: 0x7F "FLAC", version, header count, "fLaC", then the STREAMINFO block (rate: 20 bits at +10).
  if (magic.startsWith('\x7fFLAC') && body.length >= 30) {
    return { serial, rate: (body[27]! << 12) | (body[28]! << 4) | (body[29]! >> 4), skip: 0 };
  }
  return undefined;
}

/** Pages that begin streams come first in a file (RFC 3533 §4), so the head holds every one of them. */
function findAudioStream(head: Buffer): Stream | undefined {
  let at = 0;
  for (let page = pageAt(head, at); page?.first; page = pageAt(head, at)) {
    const stream = audioStream(page);
    if (stream && stream.rate > 0) return stream;
    at = page.end;
  }
  return undefined;
}

/** The last page of the stream whose granule is set (-1 means no packet ends on that page). */
function lastGranule(tail: Buffer, serial: number): bigint | undefined {
  for (let at = tail.lastIndexOf('OggS'); at >= 0; at = at === 0 ? -1 : tail.lastIndexOf('OggS', at - 1)) {
    const page = pageAt(tail, at);
    if (page && page.serial === serial && page.granule >= 0n) return page.granule;
  }
  return undefined;
}

/** Ogg pages are at most ~64 KB, so the tail this long holds at least one whole page. */
const TAIL_BYTES = 65 * 1024;

export async function oggFacts(source: ByteSource): Promise<Facts> {
  const stream = findAudioStream(source.head);
  if (!stream || source.total === undefined) return {};
  const from = Math.max(0, source.total - TAIL_BYTES);
  const tail = await source.read(from, source.total - from);
  const granule = tail && lastGranule(tail, stream.serial);
  if (granule === undefined) return {};
  const samples = Number(granule) - stream.skip;
  return samples > 0 ? { duration: samples / stream.rate } : {};
}
