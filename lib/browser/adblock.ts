/**
 * `adblock` (docs/CONTRACT.md §2, on by default as on Microlink): ads, trackers and cookie-consent banners are kept
 * out of the capture by Ghostery's adblocker engine (@ghostery/adblocker-puppeteer, maintained, MPL-2.0), built
 * from filter lists that ship inside npm packages, plus the deployer's own (lib/browser/adblock-lists.ts), so
 * nothing is downloaded at run time. The engine is parsed once per process in a worker (adblock-engine.ts), or
 * serialized ahead of time when the deployment built one (the Lambda stack does), and loaded here, in tens of
 * milliseconds, once per process: at start-up when the service prepares (app.prepare), else on first use.
 *
 * Blocking only removes requests: the engine intercepts, aborts what matches, and lets the rest continue
 * through the page's guarded proxy (lib/browser/proxy.ts) like any other request.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'puppeteer-core';
import type { AdblockSettings } from '../config.ts';
import { Budget } from '../time/budget.ts';
import type { WorkPool } from '../work/pool.ts';

type Blocker = import('@ghostery/adblocker-puppeteer').PuppeteerBlocker;

/** The lists' parse in a worker: seconds of CPU on an idle core, more on a busy one; a build past this is stuck. */
const BUILD_MS = 120_000;

const deserialize = async (bytes: Uint8Array): Promise<Blocker> =>
  (await import('@ghostery/adblocker-puppeteer')).PuppeteerBlocker.deserialize(bytes);

/**
 * An engine serialized ahead of time. One that cannot be read, or that another version of the adblocker wrote (its
 * version and checksum are checked), fails with a message that says what to do.
 */
async function loadEngine(path: string): Promise<Blocker> {
  try {
    return await deserialize(await readFile(path));
  } catch (error) {
    throw new Error(
      `The adblock engine GLANCE_ADBLOCK_ENGINE=${path} could not be loaded (${(error as Error).message}): rebuild it with ` +
        'this version of Glance (the stack does on deploy), or unset GLANCE_ADBLOCK_ENGINE to build it from the lists.',
      { cause: error },
    );
  }
}

/** By settings: one per process in service, several in tests. */
const engines = new Map<string, Promise<Blocker>>();

/**
 * The process's one engine for these settings. A prebuilt engine that failed stays failed — the file will not mend
 * itself, and each adblocked capture then fails at once with its message rather than reading it again; a build that
 * failed (its worker ended) is tried again by the next capture.
 */
export function adblocker(settings: AdblockSettings, work: WorkPool): Promise<Blocker> {
  const key = JSON.stringify(settings);
  let engine = engines.get(key);
  if (!engine) {
    engine = settings.engine
      ? loadEngine(settings.engine)
      : work.run('adblockEngine', settings.lists, { budget: new Budget(BUILD_MS) }).then(deserialize);
    engines.set(key, engine);
    if (!settings.engine) engine.catch(() => engines.delete(key));
  }
  return engine;
}

/** Turns blocking on for a page before it navigates: request interception plus the cosmetic styles per frame. */
export async function enableAdblock(page: Page, settings: AdblockSettings, work: WorkPool): Promise<void> {
  const blocker = await adblocker(settings, work);
  // The wrapper is typed against `puppeteer`; puppeteer-core's Page is the same class.
  await blocker.enableBlockingInPage(page as unknown as Parameters<Blocker['enableBlockingInPage']>[0]);
}
