/**
 * `prerender=auto` (docs/CONTRACT.md §2, the rule documented in docs/parameters.md): a fetched page is an empty client-side shell,
 * worth rendering in Chromium, when it declares no description (pages that do already carry their metadata; a
 * bare `<title>` is common in shells), loads at least one script, and its body shows fewer than 200 characters of
 * text. Server-rendered pages, even script-heavy ones, stay on the fast path.
 *
 * What the body shows is counted as the page is parsed (lib/extract/collect.ts feeds a ShellSigns), so the check
 * costs nothing of its own: a scan of its own, even a linear one, held the event loop 150–250 ms over 10 MB of tags.
 */
import type { PageFacts } from './facts.ts';

/** Characters of visible text at which a body is no longer a shell; counting stops there. */
export const SHELL_TEXT_LIMIT = 200;

/** What the check needs of a page, gathered while it is parsed. */
export interface ShellFacts {
  /** A `<script>` element was opened. */
  readonly script: boolean;
  /** Characters of text the body shows, up to SHELL_TEXT_LIMIT (whitespace collapsed and trimmed, as
   *  `.replace(/\s+/g, ' ').trim().length` counts them; a tag parts words as a space does). */
  readonly visible: number;
}

/**
 * Counts what the body shows from the parser's events: text outside `<script>`, `<style>`, `<template>`, `<noscript>`
 * and `<svg>` (the collector says which text is hidden), after the `<body>` tag — or the whole page's, when it has
 * none — and no further than SHELL_TEXT_LIMIT, so a page of text costs a few hundred steps.
 */
export class ShellSigns {
  #script = false;
  #inBody = false;
  readonly #page = { count: 0, gap: false };
  readonly #body = { count: 0, gap: false };

  opened(name: string): void {
    if (name === 'script') this.#script = true;
    else if (name === 'body') this.#inBody = true;
    this.#part();
  }

  closed(): void {
    this.#part();
  }

  text(text: string): void {
    count(this.#page, text);
    if (this.#inBody) count(this.#body, text);
  }

  done(): ShellFacts {
    return { script: this.#script, visible: (this.#inBody ? this.#body : this.#page).count };
  }

  /** A tag between two words parts them as a space does. */
  #part(): void {
    this.#page.gap = this.#page.count > 0;
    this.#body.gap = this.#body.count > 0;
  }
}

function count(counter: { count: number; gap: boolean }, text: string): void {
  for (let i = 0; i < text.length && counter.count < SHELL_TEXT_LIMIT; i++) {
    if (isSpace(text.charCodeAt(i))) counter.gap = counter.count > 0;
    else {
      counter.count += counter.gap ? 2 : 1;
      counter.gap = false;
    }
  }
}

export function isClientShell(facts: Pick<PageFacts, 'shell'>, description: string | null): boolean {
  return !description && facts.shell.script && facts.shell.visible < SHELL_TEXT_LIMIT;
}

/** JavaScript's `\s`: ECMAScript WhiteSpace and LineTerminator. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028
    || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
