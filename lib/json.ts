/**
 * JSON a stranger wrote (a page's JSON-LD, a rule's `attr=json`, an `evaluate` result, an oEmbed answer), parsed with
 * its nesting bounded. V8 parses any depth, but what then walks the value recursively does not: JSON.stringify of the
 * answer, a structured clone between threads, a rule's size check. `[[[[…]]]]` a hundred thousand deep overflowed the
 * stack there (a 500 EFATAL); refused here in one linear scan before parsing, it is simply not JSON to us.
 */

/** Deeper than any document a person or an API writes, far shallower than what overflows a stack. */
export const MAX_JSON_DEPTH = 128;

/** Whether `text` nests arrays and objects no deeper than `maxDepth` (brackets inside strings do not count). */
export function withinDepth(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // A string: skip to its closing quote, past escaped characters.
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i);
        if (inner === 0x5c) i++;
        else if (inner === 0x22) break;
      }
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return false;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return true;
}

/** The value of `text`, or undefined when it is not JSON or nests deeper than `maxDepth`. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (!withinDepth(text, maxDepth)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
