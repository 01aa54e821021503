/**
 * The browser window Glance draws around a capture: a title bar with the three window buttons, back/forward
 * arrows and an address field with a padlock, in a light and a dark theme. It is our own artwork in plain
 * CSS and inline SVG, so rendering it needs nothing from the network.
 *
 * Sizes are design pixels multiplied by the capture's device scale factor (`scale`) and rounded, so the
 * window is drawn at the capture's own resolution and the capture itself is never resampled.
 */
import type { OverlayBrowser } from '../../query/options.ts';

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

const chevron = (points: string, color: string, width: number, height: number): string =>
  `<svg width="${width}" height="${height}" viewBox="0 0 9 14" aria-hidden="true">` +
  `<path d="${points}" fill="none" stroke="${color}" stroke-width="1.9" stroke-linecap="round"` +
  ` stroke-linejoin="round"/></svg>`;

const padlock = (color: string, width: number, height: number): string =>
  `<svg width="${width}" height="${height}" viewBox="0 0 10 12" aria-hidden="true">` +
  `<path d="M2.6 5.6V3.9a2.4 2.4 0 0 1 4.8 0v1.7" fill="none" stroke="${color}" stroke-width="1.4"/>` +
  `<rect x="1" y="5.4" width="8" height="6.2" rx="1.4" fill="${color}"/></svg>`;

const reload = (color: string, size: number): string =>
  `<svg width="${size}" height="${size}" viewBox="0 0 12 12" aria-hidden="true">` +
  `<path d="M10 6.2A4 4 0 1 1 8.7 3" fill="none" stroke="${color}" stroke-width="1.3" stroke-linecap="round"/>` +
  `<path d="M9.6 0.9v2.7H6.9" fill="none" stroke="${color}" stroke-width="1.3" stroke-linecap="round"` +
  ` stroke-linejoin="round"/></svg>`;

export interface TitleBar {
  /** Pixels. */
  readonly height: number;
  readonly css: string;
  readonly html: string;
}

/** The title bar for a window `width` pixels wide; class names are prefixed `bar` to keep clear of the page. */
export function titleBar(theme: OverlayBrowser, scale: number, width: number): TitleBar {
  const px = (design: number): number => Math.max(1, Math.round(design * scale));
  const palette = PALETTES[theme];
  const height = px(BAR_HEIGHT);
  const buttonsEnd = px(EDGE) + 3 * px(BUTTON) + 2 * px(BUTTON_GAP);
  const arrowsEnd = buttonsEnd + px(ARROW_GAP) + 2 * px(ARROW_WIDTH) + px(ARROW_GAP / 2);
  // The field is centred on the window, as browsers do, and shrinks (then goes) rather than cover the buttons.
  const fieldWidth = Math.min(px(FIELD_MAX), Math.round(width * 0.5), width - 2 * (arrowsEnd + px(EDGE)));
  const showField = fieldWidth >= px(80);
  const showArrows = width >= arrowsEnd + px(EDGE);

  const css = `
.bar { position: relative; height: ${height}px; box-sizing: border-box; display: flex; align-items: center;
  background: linear-gradient(${palette.barTop}, ${palette.barBottom});
  border-bottom: ${px(0.5)}px solid ${palette.divider}; }
.bar-buttons { position: absolute; left: ${px(EDGE)}px; display: flex; gap: ${px(BUTTON_GAP)}px; }
.bar-button { width: ${px(BUTTON)}px; height: ${px(BUTTON)}px; border-radius: 50%; box-sizing: border-box;
  border: ${px(0.5)}px solid; }
.bar-arrows { position: absolute; left: ${buttonsEnd + px(ARROW_GAP)}px; display: flex; gap: ${px(ARROW_GAP / 2)}px; }
.bar-arrows svg { display: block; }
.bar-field { position: absolute; left: ${Math.round((width - fieldWidth) / 2)}px; width: ${fieldWidth}px;
  height: ${px(FIELD_HEIGHT)}px; border-radius: ${px(FIELD_HEIGHT / 2)}px; background: ${palette.field};
  box-shadow: 0 0 0 ${px(0.5)}px ${palette.fieldRing}; display: flex; align-items: center; justify-content: center; }
.bar-field svg { display: block; }
.bar-reload { position: absolute; right: ${px(FIELD_HEIGHT / 2 - RELOAD / 2 + 2)}px; }`;

  const buttons = palette.buttons
    .map(([fill, edge]) => `<div class="bar-button" style="background:${fill};border-color:${edge}"></div>`)
    .join('');
  const arrows = showArrows
    ? `<div class="bar-arrows">${chevron('M7 2 2 7l5 5', palette.icon, px(ARROW_WIDTH), px(ARROW_HEIGHT))}` +
      `${chevron('M2 2l5 5-5 5', palette.iconDim, px(ARROW_WIDTH), px(ARROW_HEIGHT))}</div>`
    : '';
  const field = showField
    ? `<div class="bar-field">${padlock(palette.icon, px(LOCK_WIDTH), px(LOCK_HEIGHT))}` +
      `<div class="bar-reload">${reload(palette.icon, px(RELOAD))}</div></div>`
    : '';
  const html = `<div class="bar"><div class="bar-buttons">${buttons}</div>${arrows}${field}</div>`;
  return { height, css, html };
}

/** The window's outline and drop shadow, for a window (or a bare capture) standing on a background. */
export function windowShadow(theme: OverlayBrowser | undefined, scale: number): string {
  const px = (design: number): number => Math.max(1, Math.round(design * scale));
  const ring = theme ? PALETTES[theme].ring : 'rgba(0,0,0,0.12)';
  return [
    `0 0 0 ${px(0.5)}px ${ring}`,
    `0 ${px(2)}px ${px(6)}px rgba(0,0,0,0.14)`,
    `0 ${px(18)}px ${px(48)}px rgba(0,0,0,0.28)`,
  ].join(', ');
}
