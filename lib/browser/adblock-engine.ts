/**
 * The adblock engine parsed from its filter lists (lib/browser/adblock-lists.ts): seconds of CPU and a few hundred MB
 * (bench/adblock), so it is never done on the event loop: the worker pool runs it as a job (lib/jobs.ts) and the
 * deploy builds it ahead of time (stacks/adblock-engine.ts). Only the serialized engine crosses into the thread that
 * blocks with it, which loads it in tens of milliseconds (lib/browser/adblock.ts).
 */
import { allRules } from './adblock-lists.ts';

type Blocker = import('@ghostery/adblocker-puppeteer').PuppeteerBlocker;

/** Parses the packaged lists and the deployer's. */
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

/** The engine of `deployerLists`, serialized (with its integrity checksum) for the thread that uses it. */
export async function serializedEngine(deployerLists: readonly string[]): Promise<Uint8Array> {
  return (await buildEngine(deployerLists)).serialize();
}
