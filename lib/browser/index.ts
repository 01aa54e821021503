/**
 * The browser module's one entry point: `createRenderer` wires the browser (browser.ts), admission to its pages
 * (admission.ts) and the page jobs — a render (render.ts, page-steps.ts) and a Lighthouse report (audit.ts). What to
 * load and capture is decided by the pipeline (request.ts). Import it dynamically: it is the only way into puppeteer.
 *
 * Budget: the request's budget bounds everything (queue, launch, page).
 */
import type { Browser } from 'puppeteer-core';
import type { WorkPool } from '../work/pool.ts';
import type { Config } from '../config.ts';
import type { Resolver } from '../guard/lookup.ts';
import { adblocker } from './adblock.ts';
import { Admission } from './admission.ts';
import { lighthouseJobs } from './audit.ts';
import { consentScript } from './consent.ts';
import { BrowserHost } from './browser.ts';
import type { LighthouseReport } from './lighthouse.ts';
import { loadPuppeteer } from './launch.ts';
import type { BrowserEvents, PageEnv, PageSetup } from './page.ts';
import { render } from './render.ts';
import type { LighthouseRequest, RenderRequest, RenderResult } from './request.ts';
import { workerGuess } from '../work/charset.ts';

export { FULL_PAGE_MAX_PIXELS } from './capture.ts';
export { MAX_PAGES } from './admission.ts';
export { resolveDevice, deviceNames } from './devices.ts';
export type { BrowserEvents, PageSetup } from './page.ts';
export type { LighthouseReport } from './lighthouse.ts';
export type { Captures, LighthouseRequest, PageActions, PageLoad, RenderRequest, RenderResult } from './request.ts';

export interface RendererDeps {
  config: Config;
  /** Where the adblock engine is parsed (lib/work/): seconds of CPU that must not hold the event loop. */
  work: WorkPool;
  resolver?: Resolver | undefined;
  /** Extra Chromium flags (tests: `--host-resolver-rules=…` keeps Chromium's own DNS off the network). */
  extraArgs?: readonly string[] | undefined;
  events?: BrowserEvents | undefined;
  /**
   * The page setup of a request that leaves every option at its default (lib/pipeline/render-request.ts): each
   * spare page is primed with it, so such a request sends nothing before `goto`. None: spares are not primed.
   */
  usualSetup?: (() => Promise<PageSetup>) | undefined;
}

export interface Renderer {
  render(request: RenderRequest): Promise<RenderResult>;
  /** A Lighthouse report of the target (lib/browser/lighthouse.ts). */
  lighthouse(request: LighthouseRequest): Promise<LighthouseReport>;
  /** The running browser (launching it if needed); for tests and diagnostics. */
  getBrowser(): Promise<Browser>;
  /**
   * Starts the browser and makes the spare pages ahead of the first requests (GLANCE_BROWSER_AT_INIT, in Lambda's
   * init phase); resolves once all are ready. Pages still closing after their answer are waited for first: spares
   * are made only when no page renders. Failures are left for the first request to meet.
   */
  warm(): Promise<void>;
  /**
   * Loads what a first capture would otherwise load on its clock: puppeteer, the adblock engine and autoconsent's
   * script. Rejects when the engine cannot be loaded (a prebuilt one from another version, say).
   */
  prepare(): Promise<void>;
  /** Stops: new renders get EBUSY at once, admitted ones finish, then the browser closes. No relaunch after. */
  close(): Promise<void>;
  /** Kills the browser now and waits for its process to be reaped (a worker thread about to be ended). */
  kill(): Promise<void>;
}

export function createRenderer({ config, work, resolver, extraArgs, events, usualSetup }: RendererDeps): Renderer {
  const host = new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs, maxPages: config.browserMaxPages });
  const env: PageEnv = { host, policy: config.policy, maxBodyBytes: config.maxBodyBytes, guess: workerGuess(work), resolver, events };
  const admission = new Admission({ host, env, frozenAfterAnswer: config.lambda !== undefined, spare: config.browserSpare, usualSetup });
  const { policy, userAgent, maxBodyBytes: maxBytes } = config;
  const steps = { adblock: config.adblock, work, frame: { policy, userAgent, maxBytes, resolver } };
  // puppeteer-core's import is a few hundred ms of module loading: never on a first capture's clock when prepared.
  const prepare = async (): Promise<void> => void (await Promise.all([adblocker(config.adblock, work), consentScript(), loadPuppeteer()]));
  return {
    render: (request) => render(admission, steps, request),
    lighthouse: lighthouseJobs(admission),
    getBrowser: () => host.getBrowser(),
    warm: () => admission.warm(),
    prepare,
    close: () => admission.close(),
    kill: () => host.kill(),
  };
}
