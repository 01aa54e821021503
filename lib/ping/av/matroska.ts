/**
 * WebM / Matroska duration and picture size (RFC 9559): Segment › Info › Duration is a float in units of
 * TimecodeScale nanoseconds (default 1 ms), and Segment › Tracks › TrackEntry › Video holds PixelWidth and
 * PixelHeight. Muxers write both before the first Cluster, within the first bytes. Live recordings (such as
 * MediaRecorder's) write no Duration; they get none.
 */
import type { Facts } from '../source.ts';

const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cluster: 0x1f43b675,
} as const;

interface Element {
  id: number;
  /** Offset of the element's data. */
  start: number;
  /** Offset just past the data; Infinity for the "unknown size" reserved value. */
  end: number;
}

/** A variable-length integer: the count of leading zero bits gives its length (RFC 8794 §4). */
function vint(bytes: Buffer, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === (0xff >> length);
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function elementAt(bytes: Buffer, at: number): Element | undefined {
  const id = vint(bytes, at, true);
  const size = id && vint(bytes, at + id.length, false);
  if (!id || !size) return undefined;
  const start = at + id.length + size.length;
  return { id: id.value, start, end: size.unknown ? Infinity : start + size.value };
}

function* children(bytes: Buffer, parent: Element): Generator<Element> {
  let at = parent.start;
  while (at < Math.min(parent.end, bytes.length)) {
    const element = elementAt(bytes, at);
    if (!element) return;
    yield element;
    if (element.end === Infinity) return;
    at = element.end;
  }
}

function unsigned(bytes: Buffer, element: Element): number | undefined {
  const length = element.end - element.start;
  if (length < 1 || length > 6 || element.end > bytes.length) return undefined;
  return bytes.readUIntBE(element.start, length);
}

function float(bytes: Buffer, element: Element): number | undefined {
  if (element.end > bytes.length) return undefined;
  const length = element.end - element.start;
  if (length === 4) return bytes.readFloatBE(element.start);
  if (length === 8) return bytes.readDoubleBE(element.start);
  return undefined;
}

function videoSize(bytes: Buffer, tracks: Element): { width: number; height: number } | undefined {
  for (const entry of children(bytes, tracks)) {
    if (entry.id !== ID.TrackEntry) continue;
    for (const video of children(bytes, entry)) {
      if (video.id !== ID.Video) continue;
      let width: number | undefined;
      let height: number | undefined;
      for (const field of children(bytes, video)) {
        if (field.id === ID.PixelWidth) width = unsigned(bytes, field);
        if (field.id === ID.PixelHeight) height = unsigned(bytes, field);
      }
      if (width && height) return { width, height };
    }
  }
  return undefined;
}

export function matroskaFacts(bytes: Buffer): Facts {
  const header = elementAt(bytes, 0);
  if (header?.id !== ID.EBML || header.end === Infinity) return {};
  const segment = elementAt(bytes, header.end);
  if (segment?.id !== ID.Segment) return {};
  const facts: Facts = {};
  let scale = 1_000_000;
  let duration: number | undefined;
  for (const element of children(bytes, segment)) {
    if (element.id === ID.Cluster) break;
    if (element.id === ID.Info) {
      for (const field of children(bytes, element)) {
        if (field.id === ID.TimecodeScale) scale = unsigned(bytes, field) || scale;
        if (field.id === ID.Duration) duration = float(bytes, field);
      }
    } else if (element.id === ID.Tracks && facts.width === undefined) {
      Object.assign(facts, videoSize(bytes, element));
    }
  }
  if (duration !== undefined && duration > 0) facts.duration = (duration * scale) / 1e9;
  return facts;
}
