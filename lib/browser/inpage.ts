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

/** Scrolls to the top at once, even on a page whose CSS asks for smooth scrolling, and answers DOCUMENT_HEIGHT. */
export const TOP_AND_HEIGHT = `() => {
  scrollTo({ top: 0, left: 0, behavior: 'instant' });
  return (${DOCUMENT_HEIGHT})();
}`;

/**
 * Hydrates a full-page capture's area (issue 17), in one call: `loading=lazy` images and iframes above
 * `maxHeight` are made eager, so they all start at once; the page is scrolled down in viewport steps (at most
 * `maxSteps`, none when it is 0; longer steps when the area needs more) until the area's bottom (which moves down as an infinite-scroll
 * page grows, up to `maxHeight`) or `scrollMs`; images still loading in the area are waited for
 * until `imagesMs` after that (never past `totalMs`); then the page is scrolled back to the top. Answers
 * DOCUMENT_HEIGHT, measured after.
 *
 * Each scroll is made in an animation frame callback: the frame's intersection observations, which come after
 * its callbacks, then see the new position, and the scroll event fires at the next frame — one frame per step,
 * and no position goes unobserved. A frame that does not come within `frameMs` is stood in for by a timer.
 */
export const HYDRATE = `async (maxHeight, maxSteps, frameMs, scrollMs, imagesMs, totalMs) => {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const frame = () => new Promise((resolve) => {
    requestAnimationFrame(resolve);
    setTimeout(resolve, frameMs);
  });
  const documentHeight = ${DOCUMENT_HEIGHT};
  const areaBottom = () => Math.min(maxHeight, documentHeight());
  // Every element measured before any is changed: one layout, however many there are.
  const within = (elements) => {
    const bottom = areaBottom();
    return [...elements].filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().top + scrollY < bottom);
  };
  for (const element of within(document.querySelectorAll('img[loading="lazy" i], iframe[loading="lazy" i]'))) {
    element.loading = 'eager';
  }
  const step = Math.max(innerHeight, Math.ceil(maxHeight / maxSteps));
  // From the top: a page already scrolled (the \`scroll\` parameter) starts one step above it, at 0. At the bottom,
  // two idle frames tell whether the page grew: the last position's observer callbacks and scroll event have run
  // by the first, and a callback the scheduler put behind that frame by the second.
  let y = scrollY > 0 ? -step : 0;
  for (let steps = 0, idle = 0; steps < maxSteps && idle < 2 && elapsed() < scrollMs; ) {
    await frame();
    const last = Math.max(0, areaBottom() - innerHeight);
    if (y >= last) {
      idle++;
      continue;
    }
    idle = 0;
    steps++;
    y = Math.min(y + step, last);
    scrollTo({ top: y, left: 0, behavior: 'instant' });
  }
  const imagesEnd = Math.min(totalMs, elapsed() + imagesMs);
  for (;;) {
    const left = imagesEnd - elapsed();
    const loading = within(document.images).filter((image) => !image.complete);
    if (left <= 0 || loading.length === 0) break;
    await Promise.race([
      Promise.all(loading.map((image) => new Promise((resolve) => {
        image.addEventListener('load', resolve, { once: true });
        image.addEventListener('error', resolve, { once: true });
      }))),
      new Promise((resolve) => setTimeout(resolve, left)),
    ]);
  }
  if (scrollY !== 0) {
    scrollTo({ top: 0, left: 0, behavior: 'instant' });
    // A frame for the page's own scroll handlers (a header that shrinks on scroll grows back).
    await frame();
  }
  return documentHeight();
}`;

/**
 * Resolves once web fonts are ready and every image that overlaps the area to capture (`top` to `bottom`, in
 * document pixels; null for the viewport where it is scrolled now) has loaded and decoded or failed.
 */
export const FONTS_AND_IMAGES = `(top, bottom) => {
  if (top === null) {
    top = scrollY;
    bottom = scrollY + innerHeight;
  }
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

/**
 * Adds a style sheet of `css` to the document, in one protocol call: puppeteer's addStyleTag also hands the element
 * back across worlds, three more round trips to the renderer. A page's CSP blocks either alike (style-src).
 */
export const ADD_STYLE = `(css) => {
  const style = document.createElement('style');
  style.textContent = css;
  (document.head ?? document.documentElement).appendChild(style);
}`;

/** A refresh's delay as Chromium reads it (Blink's ParseRefreshTime): digits and dots up to `;`, `,` or a space. */
export const REFRESH_TIME = /^[\t\n\f\r ]*([0-9.]+)(?=[;,\t\n\f\r ]|$)/;

/**
 * The delays in seconds of the document's `<meta http-equiv=refresh>`, or null before its `load` has run (Chromium
 * starts no refresh until then). The page's own code may throw under the look: that is no refresh.
 */
export const REFRESH_DELAYS = `() => {
  try {
    if (document.readyState !== 'complete') return null;
    const time = new RegExp(${JSON.stringify(REFRESH_TIME.source)});
    const delays = [];
    for (const meta of document.querySelectorAll('meta[http-equiv="refresh" i]')) {
      const found = time.exec(String(meta.getAttribute('content') ?? ''));
      if (found && Number.isFinite(Number(found[1]))) delays.push(Number(found[1]));
    }
    return delays;
  } catch {
    return [];
  }
}`;
