/**
 * JSON.stringify in slices, for answers large enough to hold the event loop: rule values run to 5 M characters, and
 * a string with line breaks and quotes to escape is written at ~200 MB/s, so a 4 MB answer held every other request
 * ~20 ms in one call (bench/stall.ts). The same text as JSON.stringify, built from the values one at a time (a long
 * string a piece at a time), giving the loop back between them (lib/time/slices.ts).
 */
import { slices } from '../time/slices.ts';

/** Below this many characters of strings an answer is written in one call: well under a millisecond. */
const SMALL = 64 * 1024;
/** Characters of one string written per step. */
const PIECE = 64 * 1024;

type Pause = () => Promise<void> | undefined;

/** JSON.stringify(value), exactly, without holding the event loop for more than a slice at a time. */
export async function stringifyInSlices(value: unknown): Promise<string> {
  if (weightBelow(value, SMALL)) return JSON.stringify(value);
  const out: string[] = [];
  await write(value, out, slices());
  return out.join('');
}

/** Whether the strings and keys in `value` hold fewer than `limit` characters; stops counting once they do not. */
function weightBelow(value: unknown, limit: number): boolean {
  let left = limit;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    left -= 1;
    if (typeof item === 'string') left -= item.length;
    else if (Array.isArray(item)) for (const member of item) stack.push(member);
    else if (isPlainObject(item)) {
      for (const key of Object.keys(item)) {
        left -= key.length;
        stack.push(item[key]);
      }
    }
    if (left < 0) return false;
  }
  return true;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  // An object with toJSON (a Date) is written as JSON.stringify writes it, in one call.
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
};

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const isOmitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

async function write(value: unknown, out: string[], pause: Pause): Promise<void> {
  if (typeof value === 'string' && value.length > PIECE) return writeString(value, out, pause);
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      const item: unknown = value[i];
      if (isOmitted(item)) out.push('null');
      else await write(item, out, pause);
    }
    out.push(']');
  } else if (isPlainObject(value)) {
    out.push('{');
    let first = true;
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (isOmitted(item)) continue;
      out.push(first ? '' : ',', JSON.stringify(key), ':');
      first = false;
      await write(item, out, pause);
    }
    out.push('}');
  } else {
    out.push(JSON.stringify(value));
  }
  const wait = pause();
  if (wait) await wait;
}

async function writeString(text: string, out: string[], pause: Pause): Promise<void> {
  out.push('"');
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + PIECE, text.length);
    // A surrogate pair is written as itself, a lone half as an escape: a piece never ends between the two.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end -= 1;
    out.push(JSON.stringify(text.slice(start, end)).slice(1, -1));
    start = end;
    const wait = pause();
    if (wait) await wait;
  }
  out.push('"');
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
