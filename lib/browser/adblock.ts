/**
 * `adblock` (docs/CONTRACT.md §2, on by default as on Microlink): ads, trackers and cookie-consent banners are kept
 * out of the capture by Ghostery's adblocker engine (@ghostery/adblocker-puppeteer, maintained, MPL-2.0), built
 * from filter lists that ship inside npm packages, plus the deployer's own (lib/browser/adblock-lists.ts), so
 * nothing is downloaded at run time. The engine is parsed once per process (seconds of CPU, bench/adblock), or
 * loaded already serialized when the deployment built one (the Lambda stack does), and shared by every page.
 *
 * Blocking only removes requests: the engine intercepts, aborts what matches, and lets the rest continue
 * through the page's guarded proxy (lib/browser/proxy.ts) like any other request.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import type { AdblockSettings } from '../config.ts';
import { allRules } from './adblock-lists.ts';

type Blocker = import('@ghostery/adblocker-puppeteer').PuppeteerBlocker;

/** Parses the packaged lists and the deployer's: seconds of CPU (bench/adblock). */
export async function buildEngine(deployerLists: readonly string[]): Promise<Blocker> {
  const { PuppeteerBlocker } = await import('@ghostery/adblocker-puppeteer');
  return PuppeteerBlocker.parse((await allRules(deployerLists)).join('\n'), {
    loadNetworkFilters: true,
    loadCosmeticFilters: true,
    loadGenericCosmeticsFilters: true,
    // Scriptlets need resources no package here ships; compression only saves memory we do not lack.
    enableCompression: false,
  });
}

/** An engine serialized by `buildEngine(...).serialize()`: tens of milliseconds instead of seconds. */
async function loadEngine(path: string): Promise<Blocker> {
  const { PuppeteerBlocker } = await import('@ghostery/adblocker-puppeteer');
  return PuppeteerBlocker.deserialize(await readFile(path));
}

/** By settings: one per process in service, several in tests. */
const engines = new Map<string, Promise<Blocker>>();

/** The process's one engine for these settings, built or loaded on first use. */
export function adblocker(settings: AdblockSettings): Promise<Blocker> {
  const key = JSON.stringify(settings);
  let engine = engines.get(key);
  if (!engine) {
    engine = settings.engine ? loadEngine(settings.engine) : buildEngine(settings.lists);
    engines.set(key, engine);
    engine.catch(() => engines.delete(key));
  }
  return engine;
}

/** Turns blocking on for a page before it navigates: request interception plus the cosmetic styles per frame. */
export async function enableAdblock(page: Page, settings: AdblockSettings): Promise<void> {
  const blocker = await adblocker(settings);
  // The wrapper is typed against `puppeteer`; puppeteer-core's Page is the same class.
  await blocker.enableBlockingInPage(page as unknown as Parameters<Blocker['enableBlockingInPage']>[0]);
}
