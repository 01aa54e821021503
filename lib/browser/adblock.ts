/**
 * `adblock` (docs/CONTRACT.md §2, on by default as on Microlink): ads, trackers and cookie-consent banners are kept
 * out of the capture by Ghostery's adblocker engine (@ghostery/adblocker-puppeteer, maintained, MPL-2.0), fed only
 * with rules that ship inside npm packages, so nothing is downloaded at run time:
 *  - network: Ghostery's tracker database (@ghostery/trackerdb), its `trackerdb_filter` rules of the advertising,
 *    site-analytics, consent-manager and adult-advertising categories (third-party only, so a site's own pages
 *    and assets are never blocked). Blocking a consent manager's script keeps its banner from appearing at all.
 *  - cosmetic: DuckDuckGo's autoconsent rules (@duckduckgo/autoconsent, MPL-2.0), the "prehide" selectors of its
 *    site-independent consent-banner rules, applied as `##selector` hiding rules.
 * The engine is parsed once per process (about 250 ms of CPU, bench/adblock) and shared by every page.
 *
 * Blocking only removes requests: the engine intercepts, aborts what matches, and lets the rest continue
 * through the page's guarded proxy (lib/browser/proxy.ts) like any other request.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'puppeteer-core';

type Blocker = import('@ghostery/adblocker-puppeteer').PuppeteerBlocker;

const CATEGORIES = new Set(['advertising', 'site_analytics', 'consent', 'pornvertising']);

const require = createRequire(import.meta.url);

/** The blocking rules of trackerdb.txt: each rule follows a `! trackerdb_id:… trackerdb_category:… trackerdb_filter` line. */
export function trackerRules(text: string): string[] {
  const rules: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('!') || !line.endsWith('trackerdb_filter')) continue;
    const category = /trackerdb_category:(\S+)/.exec(line)?.[1];
    const rule = lines[i + 1]!.trim();
    if (category && CATEGORIES.has(category) && rule !== '' && !rule.startsWith('!')) rules.push(rule);
  }
  return rules;
}

interface ConsentRule {
  prehideSelectors?: string[];
  runContext?: { urlPattern?: string };
}

/** Generic hiding rules from the consent-banner selectors of rules that apply to any site. */
export function bannerRules(rules: { autoconsent: ConsentRule[] }): string[] {
  const selectors = new Set(
    rules.autoconsent.filter((rule) => !rule.runContext?.urlPattern).flatMap((rule) => rule.prehideSelectors ?? []),
  );
  // `##` with no domain: generic. A selector list stays one rule per selector so one bad selector costs only itself.
  return [...selectors].flatMap((list) => list.split(/,(?![^(]*\))/)).map((selector) => `##${selector.trim()}`);
}

async function build(): Promise<Blocker> {
  const { PuppeteerBlocker } = await import('@ghostery/adblocker-puppeteer');
  // trackerdb's package exports only its entry point; its data files sit beside it in dist/.
  const trackerdb = join(dirname(require.resolve('@ghostery/trackerdb')), '..', 'trackerdb.txt');
  const [trackers, consent] = await Promise.all([
    readFile(trackerdb, 'utf8'),
    readFile(require.resolve('@duckduckgo/autoconsent/rules/rules.json'), 'utf8'),
  ]);
  const filters = [...trackerRules(trackers), ...bannerRules(JSON.parse(consent) as { autoconsent: ConsentRule[] })];
  return PuppeteerBlocker.parse(filters.join('\n'), {
    loadNetworkFilters: true,
    loadCosmeticFilters: true,
    loadGenericCosmeticsFilters: true,
    // Scriptlets and HTML filtering are not in these lists; compression only saves memory we do not lack.
    enableCompression: false,
  });
}

let engine: Promise<Blocker> | undefined;

/** The process's one engine, built on first use. */
export function adblocker(): Promise<Blocker> {
  engine ??= build();
  engine.catch(() => {
    engine = undefined;
  });
  return engine;
}

/** Turns blocking on for a page before it navigates: request interception plus the cosmetic styles per frame. */
export async function enableAdblock(page: Page): Promise<void> {
  const blocker = await adblocker();
  // The wrapper is typed against `puppeteer`; puppeteer-core's Page is the same class.
  await blocker.enableBlockingInPage(page as unknown as Parameters<Blocker['enableBlockingInPage']>[0]);
}
