/**
 * A plain puppeteer-core browser outside Glance (a user's browser in end-to-end tests, a renderer for unit tests,
 * the bare baseline in benchmarks), on the same Chromium binary Glance finds.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { findChromium } from '../../lib/browser/launch.ts';
import { TEST_BROWSER_ARGS } from './chromium-args.ts';

/** What this machine needs (its network is closed) plus Chromium's own DNS kept off the network. */
export const BARE_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  ...TEST_BROWSER_ARGS,
];

export const launchBareBrowser = (extraArgs: readonly string[] = []): Promise<Browser> =>
  puppeteer.launch({ executablePath: findChromium(undefined), headless: true, args: [...BARE_CHROMIUM_ARGS, ...extraArgs] });
