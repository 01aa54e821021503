/**
 * JSON.stringify in slices, for answers large enough to hold the event loop: rule values run to 5 M characters, and
 * a string with line breaks and quotes to escape is written at ~200 MB/s, so a 4 MB answer held every other request
 * ~20 ms in one call (bench/stall.ts). The same text as JSON.stringify: runs of small members are written by it, a
 * few kilobytes at a time, under their own keys (so `toJSON` sees the key it would); a long string a piece at a time;
 * the loop given back between them (lib/time/slices.ts).
 */
import { piecesOf, type Text } from '../text/pieces.ts';
import { slices } from '../time/slices.ts';

/** Characters (of strings and keys, and one per value) written in one call: well under a millisecond. */
const SMALL = 4 * 1024;
/** Characters of one string written per step. */
const PIECE = 64 * 1024;

type Pause = () => Promise<void> | undefined;

interface Writer {
  /** What is written since the last piece was made. */
  readonly out: string[];
  /** The answer so far, in pieces of about PIECE characters (joined a few at a time, never all at once). */
  readonly pieces: string[];
  /** How much of `out` is counted in `size`, and its size so far. */
  counted: number;
  size: number;
  readonly pause: Pause;
  /** The arrays and objects being written, outermost first: one met again is a cycle, as JSON.stringify says. */
  readonly open: Set<object>;
}

/**
 * JSON.stringify(value), exactly, without holding the event loop for more than a slice at a time: a small value's
 * text in one string, a larger one's in pieces of about PIECE characters to be sent in order (lib/text/pieces.ts), as
 * joining a 10 MB answer is a 35–70 ms copy of its own.
 */
export async function stringifyInSlices(value: unknown): Promise<Text> {
  if (weight(value, SMALL) !== undefined) return JSON.stringify(value);
  const writer: Writer = { out: [], pieces: [], counted: 0, size: 0, pause: slices(), open: new Set() };
  // The top-level value is written as the member '' of a holder, as JSON.stringify writes it.
  if (!(await writeMember(writer, '', value))) return JSON.stringify(value);
  const last = writer.out.join('');
  if (writer.pieces.length === 0) return last;
  if (last !== '') writer.pieces.push(last);
  return writer.pieces;
}

/** The characters `value` would take to write, roughly; undefined once past `limit` (counting stops there). */
function weight(value: unknown, limit: number): number | undefined {
  if (typeof value !== 'object' || value === null) {
    const used = typeof value === 'string' ? value.length + 2 : 1;
    return used > limit ? undefined : used;
  }
  let used = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    used += typeof item === 'string' ? item.length + 2 : 1;
    if (typeof item === 'object' && item !== null) {
      for (const key of Array.isArray(item) ? item.keys() : Object.keys(item)) {
        used += typeof key === 'string' ? key.length + 3 : 1;
        if (used > limit) return undefined;
        stack.push((item as Record<string | number, unknown>)[key]);
      }
    }
    if (used > limit) return undefined;
  }
  return used;
}

const hasToJSON = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';

/** `value` as JSON.stringify reads it under `key`: after its toJSON, boxed primitives unboxed. */
function resolved(key: string, value: unknown): unknown {
  const own = hasToJSON(value) || typeof value === 'bigint' ? (value as { toJSON?: (key: string) => unknown }).toJSON : undefined;
  const next = typeof own === 'function' ? own.call(value, key) : value;
  return next instanceof Number || next instanceof String || next instanceof Boolean || next instanceof BigInt ? next.valueOf() : next;
}

/** Writes the member `key` of some holder, its value after toJSON; false when JSON.stringify would leave it out. */
async function writeMember(writer: Writer, key: string, raw: unknown): Promise<boolean> {
  const value = resolved(key, raw);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return false;
  if (typeof value === 'string' && value.length > PIECE) await writeString(writer, value);
  else if (typeof value !== 'object' || value === null) writer.out.push(JSON.stringify(value));
  else {
    if (writer.open.has(value)) throw new TypeError('Converting circular structure to JSON');
    writer.open.add(value);
    if (Array.isArray(value)) await writeArray(writer, value);
    else await writeObject(writer, value as Record<string, unknown>);
    writer.open.delete(value);
  }
  await step(writer);
  return true;
}

/**
 * Between two members: what was written since the last piece becomes a piece once it is PIECE long, and the event
 * loop is given back when this slice has held it long enough. (No member is ever taken back once a step has passed:
 * writeObject only drops a key whose value wrote nothing.)
 */
async function step(writer: Writer): Promise<void> {
  for (; writer.counted < writer.out.length; writer.counted++) writer.size += writer.out[writer.counted]!.length;
  if (writer.size >= PIECE) {
    writer.pieces.push(writer.out.join(''));
    writer.out.length = 0;
    writer.counted = 0;
    writer.size = 0;
  }
  const wait = writer.pause();
  if (wait) await wait;
}

async function writeArray(writer: Writer, array: readonly unknown[]): Promise<void> {
  writer.out.push('[');
  for (let i = 0; i < array.length; ) {
    if (i > 0) writer.out.push(',');
    // A run of small items in one call; an item with its own toJSON alone, as it must see its own index.
    let end = i;
    for (let used = 0; end < array.length && !hasToJSON(array[end]); end++) {
      const size = weight(array[end], SMALL - used);
      if (size === undefined) break;
      used += size;
    }
    if (end > i) {
      writer.out.push(JSON.stringify(array.slice(i, end)).slice(1, -1));
      i = end;
      await step(writer);
    } else {
      if (!(await writeMember(writer, String(i), array[i]))) writer.out.push('null');
      i += 1;
    }
  }
  writer.out.push(']');
}

async function writeObject(writer: Writer, object: Record<string, unknown>): Promise<void> {
  const keys = Object.keys(object);
  writer.out.push('{');
  let written = false;
  for (let i = 0; i < keys.length; ) {
    // A run of small members in one call, under their own keys (integer-like keys come first in both objects).
    const run: Record<string, unknown> = {};
    let end = i;
    for (let used = 0; end < keys.length; end++) {
      const size = weight(object[keys[end]!], SMALL - used);
      if (size === undefined) break;
      used += size + keys[end]!.length;
      run[keys[end]!] = object[keys[end]!];
    }
    if (end > i) {
      const text = JSON.stringify(run).slice(1, -1);
      if (text !== '') {
        writer.out.push(written ? ',' : '', text);
        written = true;
      }
      i = end;
      await step(writer);
      continue;
    }
    const key = keys[i]!;
    const at = writer.out.length;
    writer.out.push(written ? ',' : '', JSON.stringify(key), ':');
    if (await writeMember(writer, key, object[key])) written = true;
    else writer.out.length = at;
    i += 1;
  }
  writer.out.push('}');
}

async function writeString(writer: Writer, text: string): Promise<void> {
  writer.out.push('"');
  // A surrogate pair is written as itself, a lone half as an escape: a piece never ends between the two.
  for (const piece of piecesOf(text, PIECE)) {
    writer.out.push(JSON.stringify(piece).slice(1, -1));
    await step(writer);
  }
  writer.out.push('"');
}
