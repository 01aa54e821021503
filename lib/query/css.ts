/**
 * Syntax checks for the CSS values callers hand us. They end up in CSS the browser module writes, so besides
 * the shape, characters that could close a declaration or a string (`;{}<>"'\`) are refused.
 */
const UNSAFE = /[;{}<>"'\\`\n\r]/;

/** A length Chromium's printer takes for margins: a number with px, in, cm or mm (a bare number is px). */
export const isPrintLength = (value: string): boolean => /^\d+(\.\d+)?(px|in|cm|mm)?$/.test(value);

function balanced(value: string): boolean {
  let depth = 0;
  for (const char of value) {
    if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const COLOR_FUNCTION = /^(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^()]*\)$/i;
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\(.+\)$/i;
// Named colours are left to the browser (an unknown name just paints nothing); only the shape is checked.
const KEYWORD = /^[a-z]{3,30}$/i;

/** Anything that parses as an http(s) URL (an overlay background image rather than CSS). */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A CSS colour, a gradient, or an http(s) image URL (docs/CONTRACT.md §5 `overlay.background`). */
export function isOverlayBackground(value: string): boolean {
  if (isHttpUrl(value)) return !/[\s"'()\\<>]/.test(value);
  if (UNSAFE.test(value) || !balanced(value)) return false;
  return HEX.test(value) || COLOR_FUNCTION.test(value) || GRADIENT.test(value) || KEYWORD.test(value);
}
