/**
 * The browser window Glance draws around a capture: a title bar with the three window buttons, back/forward
 * arrows and an address field with a padlock, in a light and a dark theme. It is our own artwork, one SVG
 * document rasterised by librsvg (sharp's SVG input), so drawing it needs neither the network nor a browser.
 *
 * Sizes are design pixels multiplied by the capture's device scale factor (`scale`) and rounded, so the
 * window is drawn at the capture's own resolution and the capture itself is never resampled.
 */
import type { OverlayBrowser, OverlayOptions } from '../../query/options.ts';
import { MAX_DEVICE_AREA, type Viewport } from '../devices.ts';

interface Palette {
  barTop: string;
  barBottom: string;
  divider: string;
  field: string;
  fieldRing: string;
  icon: string;
  iconDim: string;
  /** Hairline around the whole window, so it keeps its edge on a background of its own colour. */
  ring: string;
  buttons: readonly [fill: string, edge: string][];
}

// The window-button colours are the ones macOS uses; everyone recognises them as "a window".
const BUTTONS: Palette['buttons'] = [
  ['#ff5f57', '#e14640'],
  ['#febc2e', '#dfa123'],
  ['#28c840', '#1dad2b'],
];

const PALETTES: Readonly<Record<OverlayBrowser, Palette>> = {
  light: {
    barTop: '#f7f7f7',
    barBottom: '#ebebeb',
    divider: '#d5d5d5',
    field: '#ffffff',
    fieldRing: 'rgba(0,0,0,0.09)',
    icon: '#8a8a8f',
    iconDim: '#c4c4c8',
    ring: 'rgba(0,0,0,0.14)',
    buttons: BUTTONS,
  },
  dark: {
    barTop: '#38383b',
    barBottom: '#2c2c2f',
    divider: '#0f0f10',
    field: '#48484c',
    fieldRing: 'rgba(255,255,255,0.05)',
    icon: '#a5a5aa',
    iconDim: '#66666b',
    ring: 'rgba(255,255,255,0.16)',
    buttons: BUTTONS,
  },
};

/** Design sizes, in CSS pixels at a device scale factor of 1. */
const BAR_HEIGHT = 40;
const BUTTON = 12;
const BUTTON_GAP = 8;
const EDGE = 16;
const ARROW_GAP = 22;
const ARROW_WIDTH = 9;
const ARROW_HEIGHT = 14;
const FIELD_HEIGHT = 26;
const FIELD_MAX = 620;
const LOCK_WIDTH = 10;
const LOCK_HEIGHT = 12;
const RELOAD = 12;
/** Corner radius of the window (and of a capture shown without one). */
export const RADIUS = 10;

const barHeight = (scale: number): number => Math.max(1, Math.round(BAR_HEIGHT * scale));

const chevron = (x: number, y: number, points: string, color: string, width: number, height: number): string =>
  `<svg x="${x}" y="${y}" width="${width}" height="${height}" viewBox="0 0 9 14">` +
  `<path d="${points}" fill="none" stroke="${color}" stroke-width="1.9" stroke-linecap="round"` +
  ` stroke-linejoin="round"/></svg>`;

const padlock = (x: number, y: number, color: string, width: number, height: number): string =>
  `<svg x="${x}" y="${y}" width="${width}" height="${height}" viewBox="0 0 10 12">` +
  `<path d="M2.6 5.6V3.9a2.4 2.4 0 0 1 4.8 0v1.7" fill="none" stroke="${color}" stroke-width="1.4"/>` +
  `<rect x="1" y="5.4" width="8" height="6.2" rx="1.4" fill="${color}"/></svg>`;

const reload = (x: number, y: number, color: string, size: number): string =>
  `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="0 0 12 12">` +
  `<path d="M10 6.2A4 4 0 1 1 8.7 3" fill="none" stroke="${color}" stroke-width="1.3" stroke-linecap="round"/>` +
  `<path d="M9.6 0.9v2.7H6.9" fill="none" stroke="${color}" stroke-width="1.3" stroke-linecap="round"` +
  ` stroke-linejoin="round"/></svg>`;

export interface TitleBar {
  /** Pixels. */
  readonly height: number;
  /** An SVG document `width` × `height` pixels. */
  readonly svg: string;
}

/**
 * The title bar for a window `width` pixels wide. The geometry is the flex layout the bar had as an HTML document
 * (items centred on the bar's content box, above its bottom border), worked out here in whole pixels.
 */
export function titleBar(theme: OverlayBrowser, scale: number, width: number): TitleBar {
  const px = (design: number): number => Math.max(1, Math.round(design * scale));
  const palette = PALETTES[theme];
  const height = barHeight(scale);
  const divider = px(0.5);
  const middle = (height - divider) / 2;
  const centred = (size: number): number => middle - size / 2;
  const buttonsEnd = px(EDGE) + 3 * px(BUTTON) + 2 * px(BUTTON_GAP);
  const arrowsStart = buttonsEnd + px(ARROW_GAP);
  const arrowsEnd = arrowsStart + 2 * px(ARROW_WIDTH) + px(ARROW_GAP / 2);
  // The field is centred on the window, as browsers do, and shrinks (then goes) rather than cover the buttons.
  const fieldWidth = Math.min(px(FIELD_MAX), Math.round(width * 0.5), width - 2 * (arrowsEnd + px(EDGE)));
  const showField = fieldWidth >= px(80);
  const showArrows = width >= arrowsEnd + px(EDGE);

  const parts = [
    `<defs><linearGradient id="bar" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${palette.barTop}"/>` +
      `<stop offset="1" stop-color="${palette.barBottom}"/></linearGradient></defs>`,
    `<rect width="${width}" height="${height - divider}" fill="url(#bar)"/>`,
    `<rect y="${height - divider}" width="${width}" height="${divider}" fill="${palette.divider}"/>`,
  ];
  const button = px(BUTTON);
  const edge = px(0.5);
  palette.buttons.forEach(([fill, stroke], i) => {
    const cx = px(EDGE) + i * (button + px(BUTTON_GAP)) + button / 2;
    // A CSS border sits inside the box: the stroke's centre line is half its width in from the edge.
    parts.push(
      `<circle cx="${cx}" cy="${middle}" r="${button / 2}" fill="${stroke}"/>` +
        `<circle cx="${cx}" cy="${middle}" r="${button / 2 - edge}" fill="${fill}"/>`,
    );
  });
  if (showArrows) {
    const [w, h] = [px(ARROW_WIDTH), px(ARROW_HEIGHT)];
    parts.push(chevron(arrowsStart, centred(h), 'M7 2 2 7l5 5', palette.icon, w, h));
    parts.push(chevron(arrowsStart + w + px(ARROW_GAP / 2), centred(h), 'M2 2l5 5-5 5', palette.iconDim, w, h));
  }
  if (showField) {
    const x = Math.round((width - fieldWidth) / 2);
    const h = px(FIELD_HEIGHT);
    const y = centred(h);
    const ring = px(0.5);
    parts.push(
      `<rect x="${x - ring}" y="${y - ring}" width="${fieldWidth + 2 * ring}" height="${h + 2 * ring}"` +
        ` rx="${px(FIELD_HEIGHT / 2) + ring}" fill="${palette.fieldRing}"/>` +
        `<rect x="${x}" y="${y}" width="${fieldWidth}" height="${h}" rx="${px(FIELD_HEIGHT / 2)}" fill="${palette.field}"/>`,
    );
    const [lockWidth, lockHeight] = [px(LOCK_WIDTH), px(LOCK_HEIGHT)];
    parts.push(padlock(x + (fieldWidth - lockWidth) / 2, centred(lockHeight), palette.icon, lockWidth, lockHeight));
    const size = px(RELOAD);
    parts.push(reload(x + fieldWidth - px(FIELD_HEIGHT / 2 - RELOAD / 2 + 2) - size, centred(size), palette.icon, size));
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `${parts.join('')}</svg>`;
  return { height, svg };
}

export interface Shadow {
  readonly x: number;
  readonly y: number;
  readonly blur: number;
  readonly spread: number;
  /** An rgba() colour. */
  readonly color: string;
}

/** Margin around the window on a background: 8% of the window's width, at least 40 CSS pixels. */
const MARGIN_SHARE = 0.08;
const MARGIN_MIN = 40;

/**
 * What a frame adds around a capture `width` device pixels wide: its title bar's height and the margin on each side
 * (none without a background). The capture is bounded with them (lib/browser/capture.ts), the image made with them.
 */
export function frameGeometry(overlay: OverlayOptions, scale: number, width: number): { bar: number; margin: number } {
  const bar = overlay.browser ? barHeight(scale) : 0;
  const margin = overlay.background !== undefined ? Math.max(Math.max(1, Math.round(MARGIN_MIN * scale)), Math.round(width * MARGIN_SHARE)) : 0;
  return { bar, margin };
}

/** The window's outline and drop shadows (CSS box-shadow terms), for a window or bare capture on a background. */
export function windowShadow(theme: OverlayBrowser | undefined, scale: number): readonly Shadow[] {
  const px = (design: number): number => Math.max(1, Math.round(design * scale));
  return [
    { x: 0, y: 0, blur: 0, spread: px(0.5), color: theme ? PALETTES[theme].ring : 'rgba(0,0,0,0.12)' },
    { x: 0, y: px(2), blur: px(6), spread: 0, color: 'rgba(0,0,0,0.14)' },
    { x: 0, y: px(18), blur: px(48), spread: 0, color: 'rgba(0,0,0,0.28)' },
  ];
}

/**
 * The viewport with its scale lowered, where needed, so that its capture framed by `overlay` holds at most
 * MAX_DEVICE_AREA: clampViewport bounds the capture alone, and a frame adds up to a third to a large one (a 10 000 CSS px
 * square viewport made a 7512 × 7538 image, and Node held ~1 GB composing it).
 */
export function framedViewport(viewport: Viewport, overlay: OverlayOptions): Viewport {
  const { width, height } = viewport;
  const framedArea = (scale: number): number => {
    const { bar, margin } = frameGeometry(overlay, scale, Math.ceil(width * scale));
    return (width * scale + 2 * margin) * (height * scale + bar + 2 * margin);
  };
  let scale = viewport.deviceScaleFactor;
  if (framedArea(scale) <= MAX_DEVICE_AREA) return viewport;
  // The frame's margins and bar scale too: one step by the ratio, then small ones for what rounding leaves over.
  scale *= Math.sqrt(MAX_DEVICE_AREA / framedArea(scale));
  while (framedArea(scale) > MAX_DEVICE_AREA) scale *= 0.99;
  return { ...viewport, deviceScaleFactor: scale };
}
