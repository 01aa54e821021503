/**
 * The typed, validated options of one request (docs/CONTRACT.md §2), as `parseQuery` answers them: every default is
 * applied, so a consumer only meets `undefined` where the contract has no default, and the whole object is
 * frozen.
 */
import type { MediaField, MetaField } from '../data/fields.ts';
import type { CodeScheme } from './code-scheme.ts';
import type { DataRules } from '../rules/rule.ts';

export interface MetaOptions {
  /** Fields to extract, in the order of META_FIELDS; never empty (no field at all is `meta: false`). */
  readonly fields: readonly MetaField[];
  /** `meta.logo.square`: prefer the largest square logo the page declares (Microlink's `logo: { square }`). */
  readonly squareLogo: boolean;
}

export type OverlayBrowser = 'light' | 'dark';

export interface OverlayOptions {
  /** Draw the capture inside a browser window of this theme. */
  readonly browser: OverlayBrowser | undefined;
  /** CSS colour, gradient, or http(s) image URL the framed capture sits on. */
  readonly background: string | undefined;
}

export type ScreenshotType = 'png' | 'jpeg' | 'webp';

export interface ScreenshotOptions {
  readonly type: ScreenshotType;
  /** JPEG and WebP quality, 0–100; ignored for png. */
  readonly quality: number;
  readonly fullPage: boolean;
  /** CSS selector to wait for and clip the capture to. */
  readonly element: string | undefined;
  readonly omitBackground: boolean;
  /** Chromium encodes for speed rather than size (Puppeteer's `optimizeForSpeed`): a faster, larger PNG. */
  readonly optimizeForSpeed: boolean;
  /** Present when `overlay.browser` or `overlay.background` was given. */
  readonly overlay: OverlayOptions | undefined;
  /** Theme a JSON, plain-text or source answer is highlighted with instead of Chromium's raw text view. */
  readonly codeScheme: CodeScheme;
  /** `screenshot.palette` (@microlink/mql's ScreenshotOptions): the screenshot gains its colours, as with `palette`. */
  readonly palette: boolean;
}

/** Puppeteer's paper formats (`PaperFormat`), in their canonical spelling. */
export const PDF_FORMATS = ['Letter', 'Legal', 'Tabloid', 'Ledger', 'A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6'] as const;
export type PdfFormat = (typeof PDF_FORMATS)[number];

/** Their sizes in inches, as Puppeteer prints them (`paperFormats`, checked in tests/query/pdf.test.ts). */
export const PAPER_INCHES: Readonly<Record<PdfFormat, { readonly width: number; readonly height: number }>> = {
  Letter: { width: 8.5, height: 11 },
  Legal: { width: 8.5, height: 14 },
  Tabloid: { width: 11, height: 17 },
  Ledger: { width: 17, height: 11 },
  A0: { width: 33.1102, height: 46.811 },
  A1: { width: 23.3858, height: 33.1102 },
  A2: { width: 16.5354, height: 23.3858 },
  A3: { width: 11.6929, height: 16.5354 },
  A4: { width: 8.2677, height: 11.6929 },
  A5: { width: 5.8268, height: 8.2677 },
  A6: { width: 4.1339, height: 5.8268 },
};

/** CSS lengths with a unit Chromium's printer understands (`px`, `in`, `cm`, `mm`). */
export interface PdfMargin {
  readonly top: string;
  readonly right: string;
  readonly bottom: string;
  readonly left: string;
}

export interface PdfOptions {
  readonly format: PdfFormat;
  /** Always all four sides; a single length applies to each, an object changes only the sides given. */
  readonly margin: PdfMargin;
  readonly scale: number;
  readonly landscape: boolean;
  /** Chromium's page-range syntax, e.g. `1-5, 8, 11-13`. */
  readonly pageRanges: string | undefined;
  /** A custom paper size (Microlink's `pdf.width` / `pdf.height`), a print length; the side not given is the
   *  format's. Undefined both: the format's paper. */
  readonly width: string | undefined;
  readonly height: string | undefined;
  readonly printBackground: boolean;
}

/** Which media fields are probed. */
export type PingOptions = Readonly<Record<MediaField, boolean>>;

/** Overrides merged over the device's own viewport; only the fields the caller gave are present. */
export interface ViewportOptions {
  readonly width?: number;
  readonly height?: number;
  readonly deviceScaleFactor?: number;
  readonly isMobile?: boolean;
  readonly hasTouch?: boolean;
  readonly isLandscape?: boolean;
}

export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle0', 'networkidle2', 'auto'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

export const COLOR_SCHEMES = ['light', 'dark', 'no-preference'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

export const MEDIA_TYPES = ['screen', 'print'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export interface IframeOptions {
  /** oEmbed consumer parameters, forwarded to the provider. */
  readonly maxWidth: number | undefined;
  readonly maxHeight: number | undefined;
}

/** Formats of a Lighthouse report (Lighthouse's own `output` values). */
export const LIGHTHOUSE_OUTPUTS = ['json', 'html', 'csv'] as const;
export type LighthouseOutput = (typeof LIGHTHOUSE_OUTPUTS)[number];

/** Lighthouse's configurations: its default (`mobile`), `desktop`, and `perf` (performance only, DevTools throttling). */
export const LIGHTHOUSE_PRESETS = ['mobile', 'desktop', 'perf'] as const;
export type LighthousePreset = (typeof LIGHTHOUSE_PRESETS)[number];

/** The categories of Lighthouse's default configuration (checked against the package in tests/insights). */
export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo', 'agentic-browsing'] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];

/** Lighthouse's throttling methods: `simulate` (computed, its default), `devtools` (applied for real), `provided` (none). */
export const LIGHTHOUSE_THROTTLING = ['simulate', 'devtools', 'provided'] as const;
export type LighthouseThrottling = (typeof LIGHTHOUSE_THROTTLING)[number];

/**
 * The Lighthouse settings (its `SharedFlagsSettings`, by its own names) a caller may give, validated
 * (lib/query/insights.ts) and passed to Lighthouse as they are; only the keys given are present.
 */
export interface LighthouseSettings {
  readonly onlyCategories?: readonly LighthouseCategory[];
  /** Audit ids (lib/query/lighthouse-names.ts), added to `onlyCategories`' audits when both are given. */
  readonly onlyAudits?: readonly string[];
  readonly skipAudits?: readonly string[];
  /** One of Lighthouse's locales, as Lighthouse spells it. */
  readonly locale?: string;
  readonly throttlingMethod?: LighthouseThrottling;
  /** Milliseconds; Glance's own share of the budget still applies when it is shorter. */
  readonly maxWaitForFcp?: number;
  readonly maxWaitForLoad?: number;
  /** Milliseconds, at most Lighthouse's own values under real throttling. */
  readonly pauseAfterFcpMs?: number;
  readonly pauseAfterLoadMs?: number;
  readonly networkQuietThresholdMs?: number;
  readonly cpuQuietThresholdMs?: number;
  /** Requests of the page to block (Chromium's URL patterns, `*` a wildcard). */
  readonly blockedUrlPatterns?: readonly string[];
  readonly skipAboutBlank?: boolean;
  readonly usePassiveGathering?: boolean;
  readonly ignoreStatusCode?: boolean;
}

/** `insights.lighthouse` (https://microlink.io/docs/api/parameters/insights/lighthouse). */
export interface LighthouseOptions {
  readonly output: LighthouseOutput;
  /** Undefined: the configuration follows `device` (a mobile device audits as `mobile`, any other as `desktop`). */
  readonly preset: LighthousePreset | undefined;
  readonly settings: LighthouseSettings;
}

/** `insights` (https://microlink.io/docs/api/parameters/insights): what to find out about the page's making. */
export interface InsightsOptions {
  /** `data.insights.technologies`: the technologies the page is built with. */
  readonly technologies: boolean;
  /** `data.insights.lighthouse`: a Lighthouse report, on unless `insights.lighthouse=false` (docs/parameters.md, "insights"). */
  readonly lighthouse: false | LighthouseOptions;
}

export interface EmbedOptions {
  /** Dot path into `data`. */
  readonly path: string;
  /** `embed.proxy` **(Glance)**: a URL field's bytes are fetched and answered by Glance instead of a 302 to them. */
  readonly proxy: boolean;
}

export { DATA_TYPES, type DataRule, type DataRules, type DataType } from '../rules/rule.ts';

export interface Options {
  /** Trimmed but otherwise as given; syntax, scheme and address are vetted by the fetch module. */
  readonly url: string;
  readonly meta: false | MetaOptions;
  readonly screenshot: false | ScreenshotOptions;
  readonly pdf: false | PdfOptions;
  readonly ping: PingOptions;
  /** `embed`: one field of `data` answered instead of the envelope (docs/CONTRACT.md §6). */
  readonly embed: EmbedOptions | undefined;
  /** Dot paths into `data` to keep. */
  readonly filter: readonly string[] | undefined;
  readonly prerender: 'auto' | boolean;
  /** Milliseconds. */
  readonly ttl: number;
  /** Milliseconds, at most `ttl`; `false` when not set. */
  readonly staleTtl: number | false;
  readonly force: boolean;
  /** Microlink's `cacheKey`: a caller's own label that splits the cache (it is in the key like every option). */
  readonly cacheKey: string | undefined;
  /** Microlink's `filename`: the safe name (no extension) stored assets are saved under (lib/storage/filename.ts). */
  readonly filename: string | undefined;
  /** Milliseconds for the whole request. */
  readonly timeout: number;
  /** Device preset name as given; the browser module resolves it. */
  readonly device: string;
  readonly viewport: ViewportOptions;
  /** Never empty. */
  readonly waitUntil: readonly WaitUntil[];
  readonly waitForSelector: string | undefined;
  /** Milliseconds, at most `timeout`. */
  readonly waitForTimeout: number | undefined;
  readonly colorScheme: ColorScheme;
  readonly mediaType: MediaType;
  readonly javascript: boolean;
  readonly animations: boolean;
  /** Selectors clicked in order. */
  readonly click: readonly string[];
  /** Selectors scrolled into view in order. */
  readonly scroll: readonly string[];
  /** CSS code or stylesheet URLs. */
  readonly styles: readonly string[];
  /** JavaScript code or script URLs. */
  readonly scripts: readonly string[];
  /** Extra request headers for the target, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly audio: boolean;
  readonly video: boolean;
  readonly iframe: false | IframeOptions;
  readonly insights: false | InsightsOptions;
  readonly palette: boolean;
  /** Ads, trackers and cookie-consent banners removed before capture (Microlink's default: on). */
  readonly adblock: boolean;
  readonly data: DataRules | undefined;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const TTL = { default: DAY, min: MINUTE, max: 31 * DAY } as const;
export const TIMEOUT = { default: 28 * SECOND, min: SECOND, max: 28 * SECOND } as const;

export const DEFAULTS = {
  device: 'Macbook Pro 13',
  colorScheme: 'no-preference',
  mediaType: 'screen',
  javascript: true,
  animations: false,
  waitUntil: ['auto'],
  screenshot: { type: 'png', quality: 80, codeScheme: 'atom-dark' },
  // Microlink's pdf defaults (https://microlink.io/docs/sdk/methods/pdf).
  pdf: { format: 'A4', margin: '0.35cm', scale: 0.6, printBackground: true },
} as const;
