/**
 * Long strings worked through a piece at a time. Slicing a flat string does not copy it, so a caller can go through
 * megabytes piece by piece, giving the event loop back between pieces (lib/time/slices.ts), where one call over the
 * whole would hold it tens of milliseconds.
 */
import { slices } from '../time/slices.ts';

/**
 * `text` in pieces of at most `size` UTF-16 units, never cut between the two halves of a surrogate pair: each piece
 * then encodes, escapes or parses on its own exactly as it would inside the whole.
 */
export function* piecesOf(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    if (end < text.length && end - start > 1 && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

/** A text as it was read or written: one string, or pieces to be taken in order and never joined on the main thread. */
export type Text = string | readonly string[];

const listOf = (text: Text): readonly string[] => (typeof text === 'string' ? [text] : text);

/** Its length, in UTF-16 units. */
export const lengthOf = (text: Text): number => listOf(text).reduce((sum, piece) => sum + piece.length, 0);

/** Every piece of `text` cut to at most `size` units (see piecesOf). */
export function* allPieces(text: Text, size: number): Generator<string> {
  for (const part of listOf(text)) yield* piecesOf(part, size);
}

/** Its first `chars` units, joining only the pieces they lie in. */
export function headOf(text: Text, chars: number): string {
  const taken: string[] = [];
  let left = chars;
  for (const piece of listOf(text)) {
    if (left <= 0) break;
    taken.push(piece.length > left ? piece.slice(0, left) : piece);
    left -= piece.length;
  }
  return taken.join('');
}

/** Its last `chars` units, joining only the pieces they lie in. */
export function tailOf(text: Text, chars: number): string {
  const taken: string[] = [];
  let left = chars;
  const list = listOf(text);
  for (let i = list.length - 1; i >= 0 && left > 0; i--) {
    const piece = list[i]!;
    taken.push(piece.length > left ? piece.slice(piece.length - left) : piece);
    left -= piece.length;
  }
  return taken.reverse().join('');
}

/** The whole text in one string, for the small texts and the threads that can afford the copy. */
export const joined = (text: Text): string => (typeof text === 'string' ? text : text.join(''));

/** UTF-16 units encoded per piece by utf8Pieces: under a millisecond each. */
const ENCODE_PIECE = 64 * 1024;

/**
 * `text` as UTF-8, a piece at a time, each piece in a buffer of its own (so it can be moved to a worker thread
 * rather than copied): posting a 10 MB string copies it whole on the posting thread, ~35 ms on the development
 * machine. The loop is given back between pieces; `signal` stops it there.
 */
export async function utf8Pieces(text: Text, signal?: AbortSignal): Promise<Uint8Array[]> {
  const encoder = new TextEncoder();
  const pause = slices(signal);
  const bytes: Uint8Array[] = [];
  for (const piece of allPieces(text, ENCODE_PIECE)) {
    bytes.push(encoder.encode(piece));
    await pause();
  }
  return bytes;
}

/** The text utf8Pieces encoded, in one string (on the thread that can afford the copy). */
export function fromUtf8Pieces(bytes: readonly Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return bytes.map((piece) => decoder.decode(piece, { stream: true })).join('') + decoder.decode();
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
