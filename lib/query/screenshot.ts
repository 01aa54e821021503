/**
 * `screenshot` (docs/CONTRACT.md §5), including Microlink's legacy flat keys: top-level `element`, `fullPage`, `type`,
 * `quality`, `omitBackground`, `codeScheme` and `overlay.*` apply to the screenshot when it is on (they never turn
 * it on, and are ignored when it is off). Given both ways with different values, the request is refused.
 */
import { invalidParam } from '../errors.ts';
import { isOverlayBackground } from './css.ts';
import { readCodeScheme } from './code-scheme.ts';
import {
  DEFAULTS,
  type OverlayBrowser,
  type OverlayOptions,
  type ScreenshotOptions,
  type ScreenshotType,
} from './options.ts';
import { child, feature, flag, flagOf, legacyOption, numberIn, oneOf, onlyKeys, text, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

// `webp` is Glance's (Microlink takes png and jpeg).
const TYPES: readonly ScreenshotType[] = ['png', 'jpeg', 'webp'];
const BROWSERS: readonly OverlayBrowser[] = ['light', 'dark'];

/** Every sub-key of `screenshot`; `animated` and `path` are refused by name before (not-offered.ts, index.ts). */
const OPTIONS = ['type', 'quality', 'fullPage', 'element', 'omitBackground', 'optimizeForSpeed', 'overlay', 'codeScheme', 'palette', 'animated', 'path'];

function readOverlay(found: Found): OverlayOptions | undefined {
  onlyKeys(found, ['browser', 'background']);
  const { node, name } = found;
  if (node.value !== undefined) throw invalidParam(name, `sub-keys ${name}.browser and ${name}.background, not a value`);
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
  const node = feature(child(root, 'screenshot'), false);
  if (node === false) return false;
  const found = { node, name: 'screenshot' };
  onlyKeys(found, OPTIONS);
  const option = <T>(key: string, read: (found: Found) => T): T | undefined => legacyOption(root, found, key, read);

  return {
    type: option('type', (found) => oneOf(found, TYPES, { jpg: 'jpeg' })) ?? DEFAULTS.screenshot.type,
    quality: option('quality', (found) => numberIn(found, 0, 100, true)) ?? DEFAULTS.screenshot.quality,
    fullPage: option('fullPage', flag) ?? false,
    element: option('element', (found) => text(found, 'a CSS selector')),
    omitBackground: option('omitBackground', flag) ?? false,
    optimizeForSpeed: flagOf(node, 'optimizeForSpeed', false, 'screenshot'),
    overlay: option('overlay', readOverlay),
    codeScheme: option('codeScheme', readCodeScheme) ?? DEFAULTS.screenshot.codeScheme,
    palette: flagOf(node, 'palette', false, 'screenshot'),
  };
}
