/**
 * A long string cut into pieces of at most `size` UTF-16 units, never between the two halves of a surrogate pair
 * (each piece then encodes, escapes or parses on its own exactly as it would inside the whole). Slicing a flat string
 * does not copy it, so a caller can work through megabytes a piece at a time, giving the event loop back between
 * pieces (lib/time/slices.ts).
 */
export function* piecesOf(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    if (end < text.length && end - start > 1 && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
