/**
 * `screenshot` (docs/CONTRACT.md §5), including Microlink's legacy flat keys: top-level `element`, `fullPage`, `type`,
 * `quality`, `omitBackground` and `overlay.*` apply to the screenshot when it is on (they never turn it on,
 * and are ignored when it is off). Given both ways with different values, the request is refused.
 */
import { isDeepStrictEqual } from 'node:util';
import { invalidParam } from '../errors.ts';
import { isOverlayBackground } from './css.ts';
import {
  CODE_SCHEMES,
  DEFAULTS,
  type OverlayBrowser,
  type OverlayOptions,
  type ScreenshotOptions,
  type ScreenshotType,
} from './options.ts';
import { child, feature, flag, flagOf, numberIn, oneOf, text, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

// `webp` is Glance's (Microlink takes png and jpeg).
const TYPES: readonly ScreenshotType[] = ['png', 'jpeg', 'webp'];
const BROWSERS: readonly OverlayBrowser[] = ['light', 'dark'];

function readOverlay({ node, name }: Found): OverlayOptions | undefined {
  const browserFound = child(node, 'browser', name);
  const backgroundFound = child(node, 'background', name);
  if (!browserFound && !backgroundFound) return undefined;
  let background: string | undefined;
  if (backgroundFound) {
    background = text(backgroundFound);
    if (!isOverlayBackground(background)) {
      throw invalidParam(
        backgroundFound.name,
        'a CSS colour (#1e90ff, rgb(…), a colour name), a gradient (linear-gradient(…)) or an http(s) image URL',
        'EINVALOVERLAYBG',
      );
    }
  }
  return { browser: browserFound ? oneOf(browserFound, BROWSERS) : undefined, background };
}

export function readScreenshot(root: QueryNode): false | ScreenshotOptions {
  const options = feature(child(root, 'screenshot'), false);
  if (options === false) return false;

  /** One option, read from `screenshot.<key>` and from the legacy top-level `<key>`. */
  const option = <T>(key: string, read: (found: Found) => T): T | undefined => {
    const nested = child(options, key, 'screenshot');
    const legacy = child(root, key);
    const a = nested && read(nested);
    const b = legacy && read(legacy);
    if (nested && legacy && !isDeepStrictEqual(a, b)) {
      throw invalidParam(nested.name, `it disagrees with \`${legacy.name}\`; give it once`);
    }
    return nested ? a : b;
  };

  return {
    type: option('type', (found) => oneOf(found, TYPES, { jpg: 'jpeg' })) ?? DEFAULTS.screenshot.type,
    quality: option('quality', (found) => numberIn(found, 0, 100, true)) ?? DEFAULTS.screenshot.quality,
    fullPage: option('fullPage', flag) ?? false,
    element: option('element', (found) => text(found, 'a CSS selector')),
    omitBackground: option('omitBackground', flag) ?? false,
    optimizeForSpeed: flagOf(options, 'optimizeForSpeed', false, 'screenshot'),
    overlay: option('overlay', readOverlay),
    codeScheme: option('codeScheme', (found) => oneOf(found, CODE_SCHEMES)) ?? DEFAULTS.screenshot.codeScheme,
  };
}
