/**
 * The `markdown` tool's size cap: Markdown past it is cut at the last block boundary (a blank line) within it, so
 * no paragraph, list item or table row is left half-said, and an explicit marker says so and by how much. A code
 * block left open by the cut is closed first, or the marker would read as code.
 */
export interface Cut {
  readonly text: string;
  readonly truncated: boolean;
  /** Characters of the page's Markdown kept, and in all. */
  readonly kept: number;
  readonly total: number;
}

/** A boundary this far back is still worth cutting at; further back, a line's end (or a hard cut) keeps more. */
const LEAST_KEPT = 0.5;

export const marker = (kept: number, total: number): string =>
  `[Glance cut this Markdown here: ${kept} of ${total} characters shown. Ask again with a larger maxCharacters, or a selector for the part you need.]`;

function boundary(text: string, max: number): number {
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = text.lastIndexOf(separator, max - separator.length);
    if (at >= max * LEAST_KEPT) return at;
  }
  // One long word: cut between characters, never inside a surrogate pair.
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

/** A line's opening fence (up to three spaces, then three or more backticks or tildes), if it has one. */
function fenceAt(text: string, start: number, end: number): string | undefined {
  let at = start;
  while (at < end && at - start < 3 && text[at] === ' ') at++;
  const mark = text[at];
  if (mark !== '`' && mark !== '~') return undefined;
  let past = at;
  while (past < end && text[past] === mark) past++;
  return past - at >= 3 ? text.slice(at, past) : undefined;
}

/**
 * The fence a cut leaves open, if any (CommonMark: a fence closes with at least as many of its character). A plain
 * scan, line by line, over text bounded by the cap: no regular expression runs over the page's content here.
 */
function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const fence = fenceAt(text, start, end);
    if (fence && open === undefined) open = fence;
    else if (fence && fence[0] === open![0] && fence.length >= open!.length) open = undefined;
    start = end + 1;
  }
  return open;
}

export function cutMarkdown(markdown: string, max: number): Cut {
  const total = markdown.length;
  if (total <= max) return { text: markdown, truncated: false, kept: total, total };
  const kept = markdown.slice(0, boundary(markdown, max)).trimEnd();
  const fence = openFence(kept);
  return { text: `${kept}${fence ? `\n${fence}` : ''}\n\n${marker(kept.length, total)}`, truncated: true, kept: kept.length, total };
}
