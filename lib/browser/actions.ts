/**
 * What happens between loading and capturing (docs/CONTRACT.md §2), in this order: animations stopped (as soon as
 * the page has loaded, beside the network-quiet wait: navigate.ts), `styles`, `scripts`, `waitForSelector`,
 * `click`, `scroll`, `waitForTimeout`; then, just before a capture, a full page is scrolled through for its lazy
 * content, and web fonts and visible images are waited for (each briefly). Page actions are best effort, as in
 * Microlink: a click target that does not exist or a stylesheet that does not load is skipped, not a failed request.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'puppeteer-core';
import { Budget } from '../time/budget.ts';
import {
  FULL_PAGE_CHECK_MS,
  FULL_PAGE_FRAME_MS,
  FULL_PAGE_IMAGES_MS,
  FULL_PAGE_MARGIN_MS,
  FULL_PAGE_MAX_STEPS,
  FULL_PAGE_SCROLL_MS,
  FULL_PAGE_SHARE,
  SETTLE_CAP_MS,
  SETTLE_SHARE,
} from '../time/limits.ts';
import { browserTimeout, invalidSelector, isTimeout } from './errors.ts';
import { ADD_STYLE, FIRST_INVALID_SELECTOR, FONTS_AND_IMAGES, HYDRATE, inPage, NO_ANIMATIONS_CSS, SCROLL_INTO_VIEW } from './inpage.ts';
import type { OpenPage } from './page.ts';
import type { PageActions } from './request.ts';
import { reactsToScrolling } from './scrolling.ts';

/** A value that is a stylesheet or script address rather than code. */
const isAddress = (value: string): boolean => /^https?:\/\/\S+$/i.test(value.trim());

/**
 * `work`'s value, or undefined when it fails or takes longer than `ms`: for best-effort page calls, which may
 * never answer (a stylesheet that hangs; page timers are off with javascript=false).
 */
const bounded = <T>(work: Promise<T>, ms: number): Promise<T | undefined> =>
  Budget.cap(work.catch(() => undefined), ms, undefined);

/**
 * Every selector of the request, checked before anything is loaded: a malformed one is EINVALQUERY naming its
 * parameter, at no cost to the target.
 */
export async function checkSelectors(page: Page, selectors: ReadonlyArray<readonly [param: string, selector: string]>): Promise<void> {
  if (selectors.length === 0) return;
  const index = await page.evaluate(inPage(FIRST_INVALID_SELECTOR, selectors.map(([, selector]) => selector)));
  const bad = typeof index === 'number' ? selectors[index] : undefined;
  if (bad) throw invalidSelector(bad[0], bad[1]);
}

/** `animations=false`: CSS animations and transitions stopped (render runs it beside the network-quiet wait). */
export async function stopAnimations(open: OpenPage, budget: Budget): Promise<void> {
  await bounded(open.page.evaluate(inPage(ADD_STYLE, NO_ANIMATIONS_CSS)), budget.remaining());
}

/** The page actions after `animations`, in the order of the file's header. */
export async function prepare(open: OpenPage, actions: PageActions, budget: Budget): Promise<void> {
  const { page } = open;
  open.phase = 'while adding styles and scripts';
  for (const style of actions.styles) {
    await bounded(page.addStyleTag(isAddress(style) ? { url: style.trim() } : { content: style }), budget.remaining());
  }
  for (const script of actions.scripts) {
    await bounded(page.addScriptTag(isAddress(script) ? { url: script.trim() } : { content: script }), budget.remaining());
  }
  if (actions.waitForSelector) {
    open.phase = `while waiting for the selector ${actions.waitForSelector}`;
    const budgetMs = budget.remaining();
    await page.waitForSelector(actions.waitForSelector, { timeout: Math.max(1, budgetMs) }).catch((error: unknown) => {
      throw isTimeout(error) ? browserTimeout(open.subject, open.phase, budgetMs, error) : error;
    });
  }
  open.phase = 'while clicking and scrolling';
  for (const selector of actions.click) {
    await bounded(
      page.$(selector).then(async (target) => {
        await target?.click();
        await target?.dispose();
      }),
      budget.remaining(),
    );
  }
  for (const selector of actions.scroll) {
    await bounded(page.evaluate(inPage(SCROLL_INTO_VIEW, selector)), budget.remaining());
  }
  if (actions.waitForTimeout) {
    open.phase = 'while waiting (waitForTimeout)';
    await delay(Math.min(actions.waitForTimeout, budget.remaining()));
  }
}

/**
 * A full-page capture's area hydrated (inpage.ts HYDRATE): lazy images made eager, the page scrolled through in
 * one call and back to the top, within FULL_PAGE_* of `budget` — unless nothing on the page reacts to scrolling
 * (scrolling.ts), when only the images are waited for. Answers the document's height in CSS px, measured after, or
 * undefined when the page did not answer in time (a busy main thread) or runs no scripts (no timers or frames to
 * wait on, and nothing that loads on scroll; Chromium loads lazy images eagerly then).
 */
export async function hydrate(open: OpenPage, maxHeight: number, budget: Budget): Promise<number | undefined> {
  if (!open.page.isJavaScriptEnabled()) return undefined;
  open.phase = 'while scrolling through the page';
  // Unknown is true: the pass as before (OpenPage.consentWorld).
  const check = open.consentWorld ? undefined : bounded(reactsToScrolling(open.page), Math.min(FULL_PAGE_CHECK_MS, budget.remaining() * FULL_PAGE_SHARE));
  const scroll = (await check) ?? true;
  const totalMs = Math.floor(Math.min(FULL_PAGE_SCROLL_MS + FULL_PAGE_IMAGES_MS, budget.remaining() * FULL_PAGE_SHARE));
  const scrollMs = Math.min(FULL_PAGE_SCROLL_MS, totalMs);
  const steps = scroll ? FULL_PAGE_MAX_STEPS : 0;
  const source = inPage(HYDRATE, maxHeight, steps, FULL_PAGE_FRAME_MS, scrollMs, FULL_PAGE_IMAGES_MS, totalMs);
  const height = await bounded(open.page.evaluate(source), Math.min(totalMs + FULL_PAGE_MARGIN_MS, budget.remaining()));
  return typeof height === 'number' && height > 0 ? height : undefined;
}

/**
 * Fonts ready and images in `top`…`bottom` (document pixels) decoded, briefly; without `top` and `bottom`, those in
 * the viewport where it is scrolled now, read in the same call.
 */
export async function settle(open: OpenPage, budget: Budget, top?: number, bottom?: number): Promise<void> {
  open.phase = 'while waiting for fonts and images';
  const waitMs = Math.min(SETTLE_CAP_MS, budget.remaining() * SETTLE_SHARE);
  await bounded(open.page.evaluate(inPage(FONTS_AND_IMAGES, top ?? null, bottom ?? null)), waitMs);
}
