/**
 * Bounds of one request's `data` rules (docs/parameters.md "Custom data" → Limits). A rule set past a bound is refused at
 * query time with EINVALDATA; a page that yields more than a bound allows is truncated, never a hang.
 */

/** Rules in one request, every fallback and nested rule counted. */
export const MAX_RULES = 100;
/** Levels of rules nested through `attr` objects (`data.a.attr.b.attr.c` is 3). */
export const MAX_NESTING = 3;
/** Characters of one selector; real selectors are far shorter, and css-select compiles each one. */
export const MAX_SELECTOR_CHARS = 1000;
/** Characters of one `evaluate` source. */
export const MAX_EVALUATE_CHARS = 10_000;
/** Matches one `selectorAll` keeps, in document order; further matches are dropped. */
export const MAX_MATCHES = 1000;
/** Characters all rule values of one answer may hold; a value past the allowance is dropped as if empty. */
export const MAX_OUTPUT_CHARS = 5_000_000;
/** Characters of one `evaluate` result, as JSON. */
export const MAX_EVALUATE_RESULT_CHARS = 1_000_000;
/**
 * Element nesting the rules' DOM keeps: deeper elements are folded into their ancestor at this depth (their text
 * stays). Real pages stay under ~60; the bound keeps selector matching, serialising and Markdown linear.
 */
export const MAX_DOM_DEPTH = 256;
