/**
 * MP4 / M4A / MOV duration and picture size (ISO/IEC 14496-12): `moov/mvhd` holds the timescale and duration,
 * `moov/trak/tkhd` a track's presentation width and height. Files written for streaming put `moov` first;
 * many others put it after `mdat`, so the top-level boxes are walked by their sizes and, when `moov` lies past
 * the first bytes, one ranged read fetches its start (mvhd and the first tracks come first within it).
 */
import type { ByteSource, Facts } from '../source.ts';

interface Box {
  type: string;
  /** Offset of the box's content within the buffer. */
  start: number;
  /** Offset just past the box within the buffer (may lie past the buffer's end); Infinity for "to the end". */
  end: number;
}

function boxAt(bytes: Buffer, at: number): Box | undefined {
  if (at + 8 > bytes.length) return undefined;
  let size = bytes.readUInt32BE(at);
  const type = bytes.toString('latin1', at + 4, at + 8);
  let header = 8;
  if (size === 1) {
    if (at + 16 > bytes.length) return undefined;
    size = Number(bytes.readBigUInt64BE(at + 8));
    header = 16;
  }
  if (size === 0) return { type, start: at + header, end: Infinity };
  if (size < header) return undefined;
  return { type, start: at + header, end: at + size };
}

function* children(bytes: Buffer, start: number, end: number): Generator<Box> {
  let at = start;
  while (at < Math.min(end, bytes.length)) {
    const box = boxAt(bytes, at);
    if (!box) return;
    yield box;
    at = box.end;
  }
}

/** A full box's version-dependent field: 32 bits in version 0, 64 in version 1. */
const sized = (bytes: Buffer, at: number, wide: boolean): number =>
  wide ? Number(bytes.readBigUInt64BE(at)) : bytes.readUInt32BE(at);

/** mvhd: timescale units per second and the duration in those units (all ones = unknown). */
function movieHeader(bytes: Buffer, box: Box): { timescale: number; duration: number } | undefined {
  const wide = bytes[box.start] === 1;
  const at = box.start + 4 + (wide ? 16 : 8);
  if (at + (wide ? 12 : 8) > bytes.length) return undefined;
  const timescale = bytes.readUInt32BE(at);
  const duration = sized(bytes, at + 4, wide);
  const unknown = wide ? duration >= Number.MAX_SAFE_INTEGER : duration === 0xffffffff;
  return timescale > 0 && !unknown ? { timescale, duration } : undefined;
}

/** Fragmented files leave mvhd's duration at 0 and give the whole length in mvex/mehd. */
function fragmentDuration(bytes: Buffer, mvex: Box): number | undefined {
  for (const box of children(bytes, mvex.start, mvex.end)) {
    if (box.type !== 'mehd') continue;
    const wide = bytes[box.start] === 1;
    if (box.start + 4 + (wide ? 8 : 4) > bytes.length) return undefined;
    return sized(bytes, box.start + 4, wide);
  }
  return undefined;
}

/** tkhd: width and height are 16.16 fixed point after the matrix; audio tracks have zeros. */
function trackSize(bytes: Buffer, trak: Box): { width: number; height: number } | undefined {
  for (const box of children(bytes, trak.start, trak.end)) {
    if (box.type !== 'tkhd') continue;
    const at = box.start + (bytes[box.start] === 1 ? 88 : 76);
    if (at + 8 > bytes.length) return undefined;
    const width = Math.round(bytes.readUInt32BE(at) / 65536);
    const height = Math.round(bytes.readUInt32BE(at + 4) / 65536);
    return width > 0 && height > 0 ? { width, height } : undefined;
  }
  return undefined;
}

function movieFacts(bytes: Buffer, moov: Box): Facts {
  const facts: Facts = {};
  let header: { timescale: number; duration: number } | undefined;
  let fragments: number | undefined;
  for (const box of children(bytes, moov.start, moov.end)) {
    if (box.type === 'mvhd') header = movieHeader(bytes, box);
    else if (box.type === 'mvex') fragments = fragmentDuration(bytes, box);
    else if (box.type === 'trak' && facts.width === undefined) Object.assign(facts, trackSize(bytes, box));
  }
  const units = header?.duration || fragments;
  if (header && units) facts.duration = units / header.timescale;
  return facts;
}

/** Boxes read past the first bytes: one ranged read, enough for mvhd and the first tracks' headers. */
const MOOV_WINDOW = 64 * 1024;

export async function mp4Facts(source: ByteSource): Promise<Facts> {
  let bytes = source.head;
  let base = 0;
  let offset = 0;
  let fetched = false;
  for (;;) {
    let box = boxAt(bytes, offset - base);
    if (!box && !fetched && (source.total === undefined || offset + 8 <= source.total)) {
      fetched = true;
      const window = await source.read(offset, MOOV_WINDOW);
      if (!window) return {};
      [bytes, base] = [window, offset];
      box = boxAt(bytes, 0);
    }
    if (!box) return {};
    if (box.type === 'moov') return movieFacts(bytes, box);
    if (box.end === Infinity) return {};
    offset = base + box.end;
  }
}
