/**
 * A render's work in its page, as ordered steps over the open page (the pipeline's habit, lib/pipeline/): each says
 * from the job whether it has work to do, answering what the work is about, and does it with that. The order is the
 * contract (docs/CONTRACT.md §2): selectors are checked before anything loads, adblock and the consent watch are on
 * before the navigation, page actions run once the page has loaded, consent banners are answered before any capture,
 * and the html, evaluate and PDF read the page before anything a capture does to it (the code view replaces the
 * document; the overlay's background is painted in the page). Each step declares what of the job it reads and writes
 * and which steps it follows; lib/step-order.ts checks PAGE_STEPS against that as this module loads.
 *
 * Budget: loading and page actions stop short of the request's budget by a capture reserve, so a slow page still
 * leaves time to capture what loaded.
 */
import type { WorkPool } from '../work/pool.ts';
import type { AdblockSettings } from '../config.ts';
import { CAPTURE_RESERVE_MS, CAPTURE_RESERVE_SHARE, CONSENT_MS } from '../time/limits.ts';
import type { Budget } from '../time/budget.ts';
import { inCheckedOrder, runSteps, type Step } from '../step-order.ts';
import type { OverlayOptions, ScreenshotOptions } from '../query/options.ts';
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

/** What page steps hand on to later ones through the job, by its path in PageJob. */
export type PagePart =
  | 'consent'
  | 'loading'
  | 'navigation'
  | 'captured.html'
  | 'captured.evaluated'
  | 'captured.screenshot'
  | 'captured.pdf'
  | 'finishing.composing';

/** One step of a render's page work (lib/step-order.ts's Step over the page job). */
export type PageStep<Input = unknown> = Step<PageJob, PagePart, Input>;

function selectorsOf(actions: PageActions, shot: ScreenshotOptions | undefined): Array<[string, string]> {
  return [
    ...(actions.waitForSelector ? [['waitForSelector', actions.waitForSelector] as [string, string]] : []),
    ...actions.click.map((selector): [string, string] => ['click', selector]),
    ...actions.scroll.map((selector): [string, string] => ['scroll', selector]),
    ...(shot?.element ? [['screenshot.element', shot.element] as [string, string]] : []),
  ];
}

const navigated = (job: PageJob): Navigation => {
  if (!job.navigation) throw new Error('The page steps ended without a navigation.');
  return job.navigation;
};

/** Steps that read the page as loaded and prepared: after page actions and the consent banners' answers. */
const PREPARED = ['actions', 'consent'];

const selectors: PageStep<Array<[string, string]>> = {
  name: 'selectors',
  reads: [],
  writes: [],
  wants: ({ request }) => {
    const found = selectorsOf(request.load.actions, request.capture.screenshot);
    return found.length > 0 ? found : undefined;
  },
  run: ({ open }, found) => checkSelectors(open.page, found),
};

const adblock: PageStep<true> = {
  name: 'adblock',
  reads: [],
  writes: ['consent'],
  wants: ({ request }) => request.load.adblock || undefined,
  async run(job) {
    const { open, request, deps } = job;
    await enableAdblock(open.page, deps.adblock, deps.work);
    // Consent tools are scripts: with scripts off there is none to answer, and autoconsent could not run.
    job.consent = request.setup.javascript ? await watchConsent(open.page) : undefined;
    open.consentWorld = job.consent !== undefined;
  },
};

const navigation: PageStep<true> = {
  name: 'navigate',
  reads: [],
  writes: ['loading', 'navigation'],
  // Nothing loads before the selectors are known good and the blocking is on.
  follows: ['selectors', 'adblock'],
  wants: () => true,
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

const actions: PageStep<Budget> = {
  name: 'actions',
  reads: ['loading'],
  writes: [],
  wants: ({ loading }) => loading,
  async run(job, loading) {
    await prepare(job.open, job.request.load.actions, loading);
    job.lap('actions');
  },
};

const consent: PageStep<{ watch: Consent; loading: Budget }> = {
  name: 'consent',
  reads: ['consent', 'loading'],
  writes: [],
  wants: ({ consent: watch, loading }) => (watch && loading ? { watch, loading } : undefined),
  async run(job, { watch, loading }) {
    job.open.phase = 'while dismissing consent banners';
    await watch.settled(loading.slice(CONSENT_MS));
    await watch.stop();
    job.lap('consent');
  },
};

const html: PageStep<true> = {
  name: 'html',
  reads: [],
  writes: ['captured.html'],
  follows: PREPARED,
  wants: ({ request }) => request.capture.html,
  async run({ open, captured }) {
    captured.html = await open.page.content();
  },
};

const evaluate: PageStep<readonly string[]> = {
  name: 'evaluate',
  reads: [],
  writes: ['captured.evaluated'],
  follows: PREPARED,
  wants: ({ request }) => (request.capture.evaluate?.length ? request.capture.evaluate : undefined),
  async run({ open, request, captured }, sources) {
    captured.evaluated = await evaluateAll(open.page, sources, request.budget);
  },
};

/** A JSON, plain-text or source answer is shown highlighted in `codeScheme`, not in Chromium's raw text view. */
const codeScheme: PageStep<{ language: string; scheme: ScreenshotOptions['codeScheme'] }> = {
  name: 'codeScheme',
  reads: ['navigation'],
  writes: [],
  // The code view replaces the document they read.
  follows: ['html', 'evaluate'],
  wants: ({ request, navigation: loaded }) => {
    const shot = request.capture.screenshot;
    const language = shot && !shot.element && loaded ? codeLanguage(loaded.headers['content-type']) : undefined;
    return shot && language ? { language, scheme: shot.codeScheme } : undefined;
  },
  run: ({ open, request }, { language, scheme }) => showCode(open, language, scheme, request.budget),
};

const screenshotStep: PageStep<ScreenshotOptions> = {
  name: 'screenshot',
  reads: [],
  writes: ['captured.screenshot', 'finishing.composing'],
  follows: [...PREPARED, 'codeScheme'],
  wants: ({ request }) => request.capture.screenshot,
  async run(job, shot) {
    const { open, request, finishing, captured } = job;
    const { raw, final } = await screenshot(open, shot, request.setup.viewport, request.budget);
    captured.screenshot = raw;
    // Counted once, however many attempts withPage makes.
    finishing.done ??= finishing.begin();
    finishing.composing = final;
    if (shot.overlay) job.lap('screenshot');
  },
};

const pdf: PageStep<NonNullable<RenderRequest['capture']['pdf']>> = {
  name: 'pdf',
  reads: [],
  writes: ['captured.pdf'],
  follows: PREPARED,
  wants: ({ request }) => request.capture.pdf,
  async run({ open, request, captured }, options) {
    captured.pdf = await printPdf(open, options, request.budget);
  },
};

/** The screenshot framed (framing.ts), composed once the page is done. */
const overlay: PageStep<{ overlay: OverlayOptions; shot: ScreenshotOptions; raw: Screenshot }> = {
  name: 'overlay',
  reads: ['captured.screenshot'],
  writes: ['finishing.composing'],
  // Its background may be painted in the page, which replaces the document they read.
  follows: ['html', 'evaluate', 'pdf'],
  wants: ({ request, captured }) => {
    const shot = request.capture.screenshot;
    return shot?.overlay && captured.screenshot ? { overlay: shot.overlay, shot, raw: captured.screenshot } : undefined;
  },
  async run({ open, request, finishing, deps }, { overlay: settings, shot, raw }) {
    const output = { type: shot.type, quality: shot.quality };
    finishing.composing = await frame(open, raw, settings, output, request.budget, { ...deps.frame, outbound: request.outbound });
  },
};

/** In their order (the file's header), checked against their declarations as this module loads. */
export const PAGE_STEPS: readonly PageStep[] = inCheckedOrder(
  [selectors, adblock, navigation, actions, consent, html, evaluate, codeScheme, screenshotStep, pdf, overlay],
  'The page steps',
);

/** Runs the steps that have work to do, in order, and answers what they captured with the page's response. */
export async function runPageSteps(job: PageJob): Promise<RenderResult> {
  await runSteps(PAGE_STEPS, job);
  job.lap('capture');
  return { ...navigated(job), ...job.captured, refused: job.open.proxy.refused.map((failure) => failure.target), timings: job.timings };
}
