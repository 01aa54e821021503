/**
 * `prerender=auto` (docs/CONTRACT.md §2, the rule documented in the README): a fetched page is an empty client-side shell,
 * worth rendering in Chromium, when it declares no description (pages that do already carry their metadata; a
 * bare `<title>` is common in shells), loads at least one script, and its body shows fewer than 200 characters of
 * text. Server-rendered pages, even script-heavy ones, stay on the fast path.
 *
 * The body is read with indexOf, once, front to back, and only until 200 characters are seen: a backtracking
 * regex here (`<script\b[\s\S]*?<\/script>` against repeated unclosed `<script ` openings) held the event loop
 * for 20 s on a 320 kB page.
 */
const SHELL_TEXT_LIMIT = 200;
/** Elements whose content never shows as text; unclosed, they run to the end of the page, as in browsers. */
const INVISIBLE = new Map(
  ['script', 'style', 'noscript', 'template', 'svg'].map((name) => [name, new RegExp(`</${name}\\s*>`, 'gi')]),
);
/** A tag name at a given position (sticky: tried there only). */
const TAG_NAME = /[a-z][a-z0-9]*/iy;
const NAME_CHAR = /[a-z0-9_]/i;

export function isClientShell(html: string, description: string | null): boolean {
  if (description) return false;
  if (!/<script\b/i.test(html)) return false;
  return visibleLength(html, bodyStart(html), SHELL_TEXT_LIMIT) < SHELL_TEXT_LIMIT;
}

/** Where the body's content starts: after the first `<body…>` tag, else the whole page. */
function bodyStart(html: string): number {
  const at = /<body\b/i.exec(html)?.index;
  if (at === undefined) return 0;
  const end = html.indexOf('>', at);
  return end === -1 ? 0 : end + 1;
}

/**
 * How many characters of text show from `from` on, tags dropped and whitespace collapsed and trimmed (as
 * `.replace(/\s+/g, ' ').trim().length` would count them), counting no further than `limit`.
 */
function visibleLength(html: string, from: number, limit: number): number {
  const counter = { count: 0, gap: false };
  for (let at = from; at < html.length && counter.count < limit;) {
    const open = html.indexOf('<', at);
    countText(counter, html, at, open === -1 ? html.length : open, limit);
    if (open === -1) break;
    const next = skipMarkup(html, open);
    if (next === -1) {
      countText(counter, html, open, html.length, limit);
      break;
    }
    counter.gap = counter.count > 0;
    at = next;
  }
  return counter.count;
}

function countText(counter: { count: number; gap: boolean }, html: string, from: number, to: number, limit: number): void {
  for (let i = from; i < to && counter.count < limit; i++) {
    if (isSpace(html.charCodeAt(i))) counter.gap = counter.count > 0;
    else {
      counter.count += counter.gap ? 2 : 1;
      counter.gap = false;
    }
  }
}

/** Past the markup starting at `open` (a `<`): a comment, an invisible element with its content, or a tag. */
function skipMarkup(html: string, open: number): number {
  if (html.startsWith('<!--', open)) return endOf(html, '-->', open + 4);
  TAG_NAME.lastIndex = open + 1;
  const name = TAG_NAME.exec(html)?.[0].toLowerCase();
  const close = name === undefined ? undefined : INVISIBLE.get(name);
  if (name && close && !NAME_CHAR.test(html[open + 1 + name.length] ?? '')) {
    close.lastIndex = open;
    const found = close.exec(html);
    return found ? found.index + found[0].length : html.length;
  }
  // -1: a `<` that never closes is text, and with no `>` left nothing after it is markup either.
  const end = html.indexOf('>', open);
  return end === -1 ? -1 : end + 1;
}

function endOf(html: string, marker: string, from: number): number {
  const at = html.indexOf(marker, from);
  return at === -1 ? html.length : at + marker.length;
}

/** JavaScript's `\s`: ECMAScript WhiteSpace and LineTerminator. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028
    || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
