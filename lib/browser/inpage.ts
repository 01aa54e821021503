/**
 * Code that runs inside the page, kept as source text: the project compiles without the DOM library (it is
 * server code), and functions passed to page.evaluate would be serialised from tsx's output, whose injected
 * helpers (`__name`) do not exist in the page. Every call is bounded from Node, since with `javascript=false`
 * page timers never fire.
 */

/** `(source)(arg1, arg2…)` with JSON arguments, for page.evaluate. */
export const inPage = (source: string, ...args: unknown[]): string =>
  `(${source})(${args.map((arg) => JSON.stringify(arg)).join(', ')})`;

/** Index of the first selector querySelector cannot parse, or -1; parsing on a fragment touches no page. */
export const FIRST_INVALID_SELECTOR = `(selectors) => {
  const fragment = document.createDocumentFragment();
  for (let i = 0; i < selectors.length; i++) {
    try { fragment.querySelector(selectors[i]); } catch { return i; }
  }
  return -1;
}`;

/** Scrolls the first match to the top of the viewport at once (no smooth scrolling); false when none matched. */
export const SCROLL_INTO_VIEW = `(selector) => {
  const element = document.querySelector(selector);
  if (!element) return false;
  element.scrollIntoView({ block: 'start', inline: 'nearest', behavior: 'instant' });
  return true;
}`;

/** Height of the document in CSS pixels, for full-page captures. */
export const DOCUMENT_HEIGHT = `() => Math.max(
  document.documentElement.scrollHeight,
  document.body ? document.body.scrollHeight : 0,
  document.documentElement.clientHeight
)`;

/**
 * Resolves once web fonts are ready and every image that overlaps the area to capture (`top` to `bottom`, in
 * document pixels) has loaded and decoded or failed.
 */
export const FONTS_AND_IMAGES = `(top, bottom) => {
  const visible = [...document.images].filter((image) => {
    const box = image.getBoundingClientRect();
    const start = box.top + scrollY;
    return box.width > 0 && box.height > 0 && box.right > 0 && box.left < innerWidth &&
      start + box.height > top && start < bottom;
  });
  return Promise.all([
    document.fonts.ready,
    ...visible.map((image) => image.decode().catch(() => undefined)),
  ]).then(() => visible.length);
}`;

/**
 * Stops CSS animations and transitions: finite ones jump to their end, none starts later; `prefers-reduced-motion`
 * is emulated as well, for pages that honour it.
 */
export const NO_ANIMATIONS_CSS = `*, *::before, *::after {
  animation-delay: 0s !important;
  animation-duration: 0s !important;
  animation-iteration-count: 1 !important;
  transition-delay: 0s !important;
  transition-duration: 0s !important;
  scroll-behavior: auto !important;
  caret-color: transparent !important;
}`;
