/** How the target page is loaded and rendered: fetch mode, emulation, waits and page actions. */
import { invalidParam } from '../errors.ts';
import {
  COLOR_SCHEMES,
  DEFAULTS,
  MEDIA_TYPES,
  WAIT_UNTIL,
  type Options,
  type ViewportOptions,
  type WaitUntil,
} from './options.ts';
import { child, flag, flagOf, list, numberIn, oneOf, onlyKeys, parseBoolean, scalar, text } from './read.ts';
import type { QueryNode } from './tree.ts';

export type PageOptions = Pick<
  Options,
  'prerender' | 'device' | 'viewport' | 'waitUntil' | 'waitForSelector' | 'colorScheme' | 'mediaType' | 'javascript'
  | 'animations' | 'click' | 'scroll' | 'styles' | 'scripts'
>;

const MAX_PIXELS = 10_000;

function readPrerender(root: QueryNode): 'auto' | boolean {
  const found = child(root, 'prerender');
  if (!found) return 'auto';
  const value = scalar(found).trim();
  if (value.toLowerCase() === 'auto') return 'auto';
  const on = parseBoolean(value);
  if (on === undefined) throw invalidParam(found.name, 'auto, true or false');
  return on;
}

const VIEWPORT = ['width', 'height', 'deviceScaleFactor', 'isMobile', 'hasTouch', 'isLandscape'];

function readViewport(root: QueryNode): ViewportOptions {
  const found = child(root, 'viewport');
  if (!found) return {};
  const { node, name } = found;
  if (node.value !== undefined) {
    throw invalidParam(name, `sub-keys: ${VIEWPORT.join(', ')}`);
  }
  onlyKeys(found, VIEWPORT);
  const viewport: { -readonly [K in keyof ViewportOptions]: ViewportOptions[K] } = {};
  const width = child(node, 'width', name);
  if (width) viewport.width = numberIn(width, 1, MAX_PIXELS, true);
  const height = child(node, 'height', name);
  if (height) viewport.height = numberIn(height, 1, MAX_PIXELS, true);
  const scale = child(node, 'deviceScaleFactor', name);
  if (scale) viewport.deviceScaleFactor = numberIn(scale, 0.1, 4);
  for (const key of ['isMobile', 'hasTouch', 'isLandscape'] as const) {
    const given = child(node, key, name);
    if (given) viewport[key] = flag(given);
  }
  return viewport;
}

function readWaitUntil(root: QueryNode): readonly WaitUntil[] {
  const found = child(root, 'waitUntil');
  if (!found) return DEFAULTS.waitUntil;
  const events = list(found, true).map((item) => {
    const event = WAIT_UNTIL.find((known) => known === item.toLowerCase());
    if (!event) throw invalidParam(found.name, `one or more of ${WAIT_UNTIL.join(', ')}`);
    return event;
  });
  return [...new Set(events)];
}

const listOf = (root: QueryNode, key: string): string[] => {
  const found = child(root, key);
  return found ? list(found, false) : [];
};

export function readPage(root: QueryNode): PageOptions {
  const device = child(root, 'device');
  const selector = child(root, 'waitForSelector');
  const colorScheme = child(root, 'colorScheme');
  const mediaType = child(root, 'mediaType');
  return {
    prerender: readPrerender(root),
    device: device ? text(device, 'a device name such as "Macbook Pro 13" or "iPhone 15"') : DEFAULTS.device,
    viewport: readViewport(root),
    waitUntil: readWaitUntil(root),
    waitForSelector: selector ? text(selector, 'a CSS selector') : undefined,
    colorScheme: colorScheme ? oneOf(colorScheme, COLOR_SCHEMES) : DEFAULTS.colorScheme,
    mediaType: mediaType ? oneOf(mediaType, MEDIA_TYPES) : DEFAULTS.mediaType,
    javascript: flagOf(root, 'javascript', DEFAULTS.javascript),
    animations: flagOf(root, 'animations', DEFAULTS.animations),
    click: listOf(root, 'click'),
    scroll: listOf(root, 'scroll'),
    styles: listOf(root, 'styles'),
    scripts: listOf(root, 'scripts'),
  };
}
