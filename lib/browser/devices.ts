/**
 * Device presets (docs/CONTRACT.md §2 `device`, `viewport`): Puppeteer's known devices plus desktop presets, matched
 * without case. The known-devices table is a plain data module of puppeteer-core with no imports (~1 ms to
 * load), so a name can be checked without loading the browser stack.
 */
import type { Device } from 'puppeteer-core';
import { invalidParam } from '../errors.ts';
import type { ViewportOptions } from '../query/options.ts';

export interface Viewport {
  readonly width: number;
  readonly height: number;
  readonly deviceScaleFactor: number;
  readonly isMobile: boolean;
  readonly hasTouch: boolean;
  readonly isLandscape: boolean;
}

export interface Emulation {
  readonly viewport: Viewport;
  /** Undefined for desktop presets: the configured desktop Chrome user agent applies. */
  readonly userAgent: string | undefined;
}

const desktop = (width: number, height: number, deviceScaleFactor: number): Viewport => ({
  width,
  height,
  deviceScaleFactor,
  isMobile: false,
  hasTouch: false,
  isLandscape: true,
});

/**
 * Desktop screens. The first eight are Microlink's own list, with its sizes (@browserless/devices'
 * devices.json, MIT), so a `device` name gives the same image here as there; 'Macbook Pro 13' is the default
 * device, giving 2560×1600 images. The rest are Glance's additions and spellings.
 */
const DESKTOPS: Readonly<Record<string, Viewport>> = {
  'Macbook Pro 13': desktop(1280, 800, 2),
  'Macbook Pro 15': desktop(1440, 900, 2),
  'Macbook Pro 16': desktop(1536, 960, 2),
  'iMac 21': desktop(1980, 1080, 1),
  'iMac 21 4K': desktop(2048, 1152, 2),
  'iMac 24 4.5K': desktop(4480, 2520, 1),
  'iMac 27': desktop(2560, 1440, 1),
  'iMac 27 5K': desktop(2560, 1440, 2),
  'Macbook Pro 13 retina': desktop(1280, 800, 2),
  'Macbook Pro 14': desktop(1512, 982, 2),
  'Macbook Pro 15 retina': desktop(1440, 900, 2),
  'Macbook Air 13': desktop(1470, 956, 2),
  'iMac 21.5': desktop(1920, 1080, 1),
  'iMac 24': desktop(2240, 1260, 2),
  Desktop: desktop(1920, 1080, 1),
  'Full HD': desktop(1920, 1080, 1),
  HD: desktop(1280, 720, 1),
  Laptop: desktop(1366, 768, 1),
  '4K': desktop(3840, 2160, 1),
};

/**
 * Defensive bounds (the query module already refuses out-of-range values): Chromium cannot paint a surface
 * wider or taller than 16384 device pixels, so the scale factor gives way when width × scale would exceed it.
 */
const MAX_CSS_PIXELS = 10_000;
const MAX_DEVICE_PIXELS = 16_384;
const SCALE_RANGE = [0.1, 4] as const;
/**
 * The most device pixels a viewport, and any one capture (lib/browser/capture.ts), may hold: the default device's
 * full-page capture, 2560 × 16 384. Chromium keeps several copies of a surface while it rasters and encodes it, so
 * sides bounded one by one were not enough: a 16 384 × 16 384 full page took its processes to 4.6 GB (2.8 GB at
 * 8 192 × 16 384, 1.2 GB at 2560 × 16 384), beyond a 2 GB Lambda. The scale factor gives way for a larger viewport.
 * The bound is on CSS sizes times the scale: rounding a clip to whole pixels may add a row or a column (well under
 * 0.1 %), which is not what it guards against.
 */
export const MAX_DEVICE_AREA = 2_560 * MAX_DEVICE_PIXELS;

const clamp = (value: number, min: number, max: number): number =>
  Math.min(max, Math.max(min, Number.isFinite(value) ? value : min));

export function clampViewport(viewport: Viewport): Viewport {
  const width = Math.round(clamp(viewport.width, 1, MAX_CSS_PIXELS));
  const height = Math.round(clamp(viewport.height, 1, MAX_CSS_PIXELS));
  const scale = clamp(viewport.deviceScaleFactor, SCALE_RANGE[0], SCALE_RANGE[1]);
  const fits = Math.min(MAX_DEVICE_PIXELS / Math.max(width, height), Math.sqrt(MAX_DEVICE_AREA / (width * height)));
  // Each side at least one device pixel: Chromium never finishes a capture of a surface narrower (it waited out the
  // request's budget on a 4 CSS px viewport at scale 0.1).
  return { ...viewport, width, height, deviceScaleFactor: Math.max(Math.min(scale, fits), 1 / Math.min(width, height)) };
}

interface Catalogue {
  readonly byKey: ReadonlyMap<string, Emulation>;
  readonly names: readonly string[];
}

let catalogue: Promise<Catalogue> | undefined;

async function loadCatalogue(): Promise<Catalogue> {
  const { KnownDevices } = await import('puppeteer-core/internal/common/Device.js');
  const byKey = new Map<string, Emulation>();
  const names: string[] = [];
  for (const [name, viewport] of Object.entries(DESKTOPS)) {
    byKey.set(name.toLowerCase(), { viewport, userAgent: undefined });
    names.push(name);
  }
  for (const [name, device] of Object.entries<Device>(KnownDevices)) {
    const { width, height, deviceScaleFactor = 1, isMobile = false, hasTouch = false, isLandscape = false } = device.viewport;
    if (byKey.has(name.toLowerCase())) continue;
    byKey.set(name.toLowerCase(), {
      viewport: { width, height, deviceScaleFactor, isMobile, hasTouch, isLandscape },
      userAgent: device.userAgent,
    });
    names.push(name);
  }
  return { byKey, names };
}

/** Every accepted device name, desktop presets first. */
export async function deviceNames(): Promise<readonly string[]> {
  return (await (catalogue ??= loadCatalogue())).names;
}

/**
 * The emulation for `device` with `viewport` merged over it; EINVALQUERY naming `device` (and some valid
 * names) when the name is unknown.
 */
export async function resolveDevice(device: string, viewport: ViewportOptions = {}): Promise<Emulation> {
  const { byKey } = await (catalogue ??= loadCatalogue());
  const preset = byKey.get(device.trim().toLowerCase());
  if (!preset) {
    throw invalidParam(
      'device',
      `"${device}" is not a known device; use a desktop preset (${Object.keys(DESKTOPS).slice(0, 8).join(', ')}…) ` +
        `or one of Puppeteer's known devices (iPhone 15, Pixel 5, iPad Pro…)`,
    );
  }
  return { userAgent: preset.userAgent, viewport: clampViewport({ ...preset.viewport, ...viewport }) };
}
