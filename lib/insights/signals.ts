/**
 * The part of a page's HTML technology detection reads (lib/insights/technologies.ts), taken on the main thread so
 * that a 10 MB page is not copied whole to the worker that runs the rules (posting it held the loop ~25 ms here).
 *
 * What the rules read, bounded (issue 24): each rule is a regular expression run once per value, so the work is the
 * rules times the characters they are given, and the `html` rules' bounded quantifiers (`<link[^>]{0,250}
 * href=[^>]{1,250}…`) cost up to a few hundred steps a character on markup written against them. They look for what a
 * page's markup says about its makers — a generator comment, framework markers on the root elements, class names and
 * paths of a theme, a widget's tag near the end of the body — so they get the document's first and last lines, each
 * cut at 2 000 characters as Wappalyzer's own driver cuts them (it keeps the first and last 1 500), and at most
 * START_CHARS and END_CHARS of them; the `<script src>` and `<meta>` the page declares anywhere come from its facts,
 * each value cut.
 */
import { headOf, joined, lengthOf, tailOf, type Text } from '../text/pieces.ts';

/** Longer URLs, header values and meta contents hold nothing a fingerprint names past their start. */
const MAX_VALUE_CHARS = 2048;
/** Values of one meta name: a page repeats a name to no purpose a fingerprint reads. */
const MAX_VALUES = 8;

export const cut = (value: string, chars = MAX_VALUE_CHARS): string => (value.length > chars ? value.slice(0, chars) : value);

const LINES = 1500;
const LINE_CHARS = 2000;
const START_CHARS = 128 * 1024;
const END_CHARS = 32 * 1024;
/** How far into a page in pieces its first and last lines are looked for: past the characters read, room for lines
 *  longer than LINE_CHARS (read cut, but their newline found). */
const HEAD_WINDOW = 1024 * 1024;
const TAIL_WINDOW = 256 * 1024;

/**
 * Lines of `html` between `from` and `to`, read from the first (or, `backwards`, from the last), each cut at
 * LINE_CHARS, up to LINES of them and `chars` characters in all; `stop` is where reading forwards stopped.
 */
function readLines(html: string, from: number, to: number, chars: number, backwards: boolean): { lines: string[]; stop: number } {
  const read: string[] = [];
  let [low, high, left] = [from, to, chars];
  while (read.length < LINES && left > 0 && low < high) {
    const width = Math.min(LINE_CHARS, left);
    let line: string;
    if (backwards) {
      const newline = html.lastIndexOf('\n', high - 1);
      const start = newline < low ? low : newline + 1;
      line = html.slice(start, Math.min(high, start + width));
      high = Math.max(low, newline);
    } else {
      const newline = html.indexOf('\n', low);
      const end = newline === -1 || newline >= high ? high : newline;
      line = html.slice(low, Math.min(end, low + width));
      low = Math.min(high, end + 1);
    }
    read.push(line);
    left -= line.length + 1;
  }
  return { lines: backwards ? read.reverse() : read, stop: low };
}

/**
 * The document's first and last lines within the bounds above; given its own output, the same text again. A page in
 * pieces is read from its first HEAD_WINDOW and last TAIL_WINDOW characters, never joined whole: lines that start
 * further in are read by no rule's worth of work.
 */
export function boundedHtml(text: Text): string {
  const length = lengthOf(text);
  if (length <= HEAD_WINDOW + TAIL_WINDOW) {
    const html = joined(text);
    const start = readLines(html, 0, html.length, START_CHARS, false);
    const end = readLines(html, start.stop, html.length, END_CHARS, true);
    return [...start.lines, ...end.lines].join('\n');
  }
  const head = headOf(text, HEAD_WINDOW);
  const tail = tailOf(text, TAIL_WINDOW);
  // The tail's first line may have begun before it: the part within the tail counts as a line of its own.
  return [...readLines(head, 0, head.length, START_CHARS, false).lines, ...readLines(tail, 0, tail.length, END_CHARS, true).lines].join('\n');
}

/** The page's `<meta>` values the rules read: the first MAX_VALUES of each name, each cut. */
export function boundedMeta(meta: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  return new Map([...meta].map(([name, values]) => [name, values.slice(0, MAX_VALUES).map((value) => cut(value))]));
}
