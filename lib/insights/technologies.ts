/**
 * `insights.technologies`: what a page is built with, by Wappalyzer's fingerprints as the community keeps them
 * (enthec/webappanalyzer, GPL-3.0, at the commit Glance ships: rules.ts) run by Wappalyzer's own engine
 * (`wappalyzer-core` 6, GPL-3.0). The rules are matched against what Glance already has from loading the page:
 * its URL, response headers and cookies, HTML, `<script src>` URLs and `<meta>` tags, each bounded (boundedHtml,
 * below). Rules that need a live DOM, JavaScript globals, DNS or extra requests (`dom`, `js`, `dns`, `probe`,
 * `robots`) are not run. A job of the worker pool (lib/jobs.ts): the rules are compiled in the worker, and the
 * matching runs there, within the request's budget.
 */
import type { Items } from 'wappalyzer-core';
import { readRules } from './rules.ts';
import { boundedHtml, boundedMeta, cut } from './signals.ts';

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

interface Loaded {
  readonly engine: Engine;
  /** Where the rules' icons are, in their repository at the rules' own commit. */
  readonly icons: string;
}

let loaded: Promise<Loaded> | undefined;

/** The engine with the rules compiled, once per process (about 7 500 technologies; see bench/RESULTS.md). */
export function loadEngine(): Promise<Loaded> {
  return (loaded ??= import('wappalyzer-core').then(({ default: engine }) => {
    const { source, categories, technologies } = readRules();
    engine.setCategories(categories);
    engine.setTechnologies(technologies);
    return { engine, icons: `${source.repository}/raw/${source.commit}/src/images/icons/` };
  }));
}

export async function detectTechnologies(page: PageSignals): Promise<DetectedTechnology[]> {
  const { engine, icons } = await loadEngine();
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
    logo: t.icon ? `${icons}${encodeURIComponent(t.icon)}` : null,
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
    meta: Object.fromEntries(boundedMeta(page.meta)),
  };
}



