/**
 * A render's work in its page, as ordered steps over the open page (the pipeline's habit, lib/pipeline/): each says
 * from the job whether it has work to do, and does it. The order is the contract (docs/CONTRACT.md §2): selectors
 * are checked before anything loads, adblock and the consent watch are on before the navigation, page actions run
 * once the page has loaded, consent banners are answered before any capture, and the html is read before anything a
 * capture does to the page (the code view replaces the document; the overlay's background is painted in the page).
 *
 * Budget: loading and page actions stop short of the request's budget by a capture reserve, so a slow page still
 * leaves time to capture what loaded.
 */
import type { WorkPool } from '../work/pool.ts';
import type { AdblockSettings } from '../config.ts';
import { CAPTURE_RESERVE_MS, CAPTURE_RESERVE_SHARE, CONSENT_MS } from '../time/limits.ts';
import type { Budget } from '../time/budget.ts';
import type { ScreenshotOptions } from '../query/options.ts';
import { checkSelectors, prepare, stopAnimations } from './actions.ts';
import { enableAdblock } from './adblock.ts';
import type { Lap } from './admission.ts';
import { printPdf, screenshot, type Screenshot } from './capture.ts';
import { codeLanguage, showCode } from './code.ts';
import { watchConsent, type Consent } from './consent.ts';
import { evaluateAll } from './evaluate.ts';
import { frame, type FrameDeps } from './framing.ts';
import { navigate, type Navigation } from './navigate.ts';
import type { OpenPage } from './page.ts';
import type { PageActions, RenderRequest, RenderResult } from './request.ts';

export interface PageStepDeps {
  readonly adblock: AdblockSettings;
  /** Where the adblock engine is parsed (lib/work/). */
  readonly work: WorkPool;
  /** For the overlay's background image (framing.ts); the answer's outbound allowance is the request's. */
  readonly frame: Omit<FrameDeps, 'outbound'>;
}

/**
 * What outlasts one attempt at the page (withPage may try twice): the screenshot still being encoded or composed once
 * the page is done, and the mark that keeps spares from taking its CPU meanwhile (admission.ts `finishing`).
 */
export interface Finishing {
  composing?: () => Promise<Screenshot>;
  done?: () => void;
  /** Starts the mark (once per render, however many attempts). */
  readonly begin: () => () => void;
}

/** One attempt's page work: the request, the open page, and what the steps have left so far. */
export interface PageJob {
  readonly open: OpenPage;
  readonly request: RenderRequest;
  readonly deps: PageStepDeps;
  readonly lap: Lap;
  readonly timings: Record<string, number>;
  readonly finishing: Finishing;
  /** The share of the budget loading and page actions may take (set by `navigate`). */
  loading?: Budget;
  consent?: Consent | undefined;
  navigation?: Navigation;
  readonly captured: Pick<RenderResult, 'html' | 'evaluated' | 'screenshot' | 'pdf'>;
}

export interface PageStep {
  readonly name: string;
  wants(job: PageJob): boolean;
  run(job: PageJob): Promise<void>;
}

function selectorsOf(actions: PageActions, shot: ScreenshotOptions | undefined): Array<[string, string]> {
  return [
    ...(actions.waitForSelector ? [['waitForSelector', actions.waitForSelector] as [string, string]] : []),
    ...actions.click.map((selector): [string, string] => ['click', selector]),
    ...actions.scroll.map((selector): [string, string] => ['scroll', selector]),
    ...(shot?.element ? [['screenshot.element', shot.element] as [string, string]] : []),
  ];
}

const navigated = (job: PageJob): { navigation: Navigation; loading: Budget } => {
  if (!job.navigation || !job.loading) throw new Error(`The page step ran before the navigation.`);
  return { navigation: job.navigation, loading: job.loading };
};

const always = (): boolean => true;

const selectors: PageStep = {
  name: 'selectors',
  wants: always,
  run: ({ open, request }) => checkSelectors(open.page, selectorsOf(request.load.actions, request.capture.screenshot)),
};

const adblock: PageStep = {
  name: 'adblock',
  wants: ({ request }) => request.load.adblock,
  async run(job) {
    const { open, request, deps } = job;
    await enableAdblock(open.page, deps.adblock, deps.work);
    // Consent tools are scripts: with scripts off there is none to answer, and autoconsent could not run.
    job.consent = request.setup.javascript ? await watchConsent(open.page) : undefined;
    open.consentWorld = job.consent !== undefined;
  },
};

const navigation: PageStep = {
  name: 'navigate',
  wants: always,
  async run(job) {
    const { open, request } = job;
    const { budget, capture, load } = request;
    const wantsCapture = capture.screenshot !== undefined || capture.pdf !== undefined;
    const reserve = wantsCapture ? Math.min(CAPTURE_RESERVE_MS, budget.remaining() * CAPTURE_RESERVE_SHARE) : 0;
    const loading = budget.slice(Infinity, reserve);
    job.loading = loading;
    job.navigation = await navigate(open, request.url, load.waitUntil, loading, load.stopAnimations ? () => stopAnimations(open, loading) : undefined);
    job.lap('navigate');
  },
};

const actions: PageStep = {
  name: 'actions',
  wants: always,
  async run(job) {
    await prepare(job.open, job.request.load.actions, navigated(job).loading);
    job.lap('actions');
  },
};

const consent: PageStep = {
  name: 'consent',
  wants: ({ consent }) => consent !== undefined,
  async run(job) {
    job.open.phase = 'while dismissing consent banners';
    await job.consent?.settled(navigated(job).loading.slice(CONSENT_MS));
    await job.consent?.stop();
    job.lap('consent');
  },
};

const html: PageStep = {
  name: 'html',
  wants: ({ request }) => request.capture.html === true,
  async run({ open, captured }) {
    captured.html = await open.page.content();
  },
};

const evaluate: PageStep = {
  name: 'evaluate',
  wants: ({ request }) => (request.capture.evaluate?.length ?? 0) > 0,
  async run({ open, request, captured }) {
    captured.evaluated = await evaluateAll(open.page, request.capture.evaluate ?? [], request.budget);
  },
};

/** A JSON, plain-text or source answer is shown highlighted in `codeScheme`, not in Chromium's raw text view. */
const codeLanguageOf = (job: PageJob): string | undefined => {
  const shot = job.request.capture.screenshot;
  return shot && !shot.element ? codeLanguage(navigated(job).navigation.headers['content-type']) : undefined;
};

const codeScheme: PageStep = {
  name: 'codeScheme',
  wants: (job) => codeLanguageOf(job) !== undefined,
  async run(job) {
    const { open, request } = job;
    const language = codeLanguageOf(job);
    const shot = request.capture.screenshot;
    if (language && shot) await showCode(open, language, shot.codeScheme, request.budget);
  },
};

const screenshotStep: PageStep = {
  name: 'screenshot',
  wants: ({ request }) => request.capture.screenshot !== undefined,
  async run(job) {
    const { open, request, finishing, captured, deps } = job;
    const shot = request.capture.screenshot;
    if (!shot) return;
    const { raw, final } = await screenshot(open, shot, request.setup.viewport, request.budget);
    captured.screenshot = raw;
    // Counted once, however many attempts withPage makes.
    finishing.done ??= finishing.begin();
    finishing.composing = final;
    if (shot.overlay) {
      job.lap('screenshot');
      const output = { type: shot.type, quality: shot.quality };
      finishing.composing = await frame(open, raw, shot.overlay, output, request.budget, { ...deps.frame, outbound: request.outbound });
    }
  },
};

const pdf: PageStep = {
  name: 'pdf',
  wants: ({ request }) => request.capture.pdf !== undefined,
  async run({ open, request, captured }) {
    if (request.capture.pdf) captured.pdf = await printPdf(open, request.capture.pdf, request.budget);
  },
};

/** In their order (the file's header). */
export const PAGE_STEPS: readonly PageStep[] = [selectors, adblock, navigation, actions, consent, html, evaluate, codeScheme, screenshotStep, pdf];

/** Runs the steps that have work to do, in order, and answers what they captured with the page's response. */
export async function runPageSteps(job: PageJob): Promise<RenderResult> {
  for (const step of PAGE_STEPS) {
    if (step.wants(job)) await step.run(job);
  }
  job.lap('capture');
  const { navigation: response } = navigated(job);
  return { ...response, ...job.captured, refused: job.open.proxy.refused.map((failure) => failure.target), timings: job.timings };
}
