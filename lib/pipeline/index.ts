/**
 * One request's work as ordered steps over one context (lib/pipeline/context.ts): load the target (Chromium
 * when the answer needs a browser, else the guarded fetcher), extract, render a client-side shell after all,
 * ping media, store captures. A step runs only when `wants` says it has work the answer can show, and gets what
 * `wants` answered. Adding a feature is one file under steps/ (declaring what it reads and writes) and one line here.
 */
import type { Data } from '../data/fields.ts';
import type { LoadedPage } from '../fetch/document.ts';
import type { VettedUrl } from '../fetch/index.ts';
import type { Hop } from '../guard/loop.ts';
import { Outbound } from '../guard/outbound.ts';
import type { Options } from '../query/options.ts';
import type { Envelope } from '../http/respond.ts';
import type { Budget } from '../time/budget.ts';
import type { Timings } from '../time/timings.ts';
import type { Context, FetchMode, PipelineDeps, Step } from './context.ts';
import { inCheckedOrder, runSteps } from '../step-order.ts';
import { clientShell } from './steps/client-shell.ts';
import { extract } from './steps/extract.ts';
import { fetch } from './steps/fetch.ts';
import { iframe } from './steps/iframe.ts';
import { insights } from './steps/insights.ts';
import { lighthouse } from './steps/lighthouse.ts';
import { palette } from './steps/palette.ts';
import { ping } from './steps/ping.ts';
import { render } from './steps/render.ts';
import { rules } from './steps/rules.ts';
import { store } from './steps/store.ts';
import { wantedOutput } from './wanted.ts';

export type { FetchMode, PipelineDeps } from './context.ts';

/** In an order that keeps every step's declared reads and writes (lib/step-order.ts): checked as this module loads. */
export const STEPS: readonly Step[] = inCheckedOrder([render, fetch, extract, clientShell, rules, iframe, insights, lighthouse, ping, store, palette], "The pipeline's steps");

export interface PipelineResult {
  envelope: Envelope;
  mode: FetchMode;
  /** How long loading the target took (fetch or render), for x-fetch-time. */
  loadMs: number | undefined;
  /** The answer's outbound allowance, what the steps left of it (`embed.proxy` fetches within it too). */
  outbound: Outbound;
}

/** `hop`: what this answer's media probes carry (lib/guard/loop.ts). */
export async function runPipeline(url: VettedUrl, options: Options, budget: Budget, timings: Timings, deps: PipelineDeps, hop: Hop): Promise<PipelineResult> {
  const ctx: Context = {
    url,
    options,
    hop,
    budget,
    timings,
    deps,
    wanted: wantedOutput(options),
    outbound: new Outbound(),
    mode: 'skipped',
    page: undefined,
    parsed: undefined,
    evaluated: undefined,
    data: {},
    media: {},
    captures: {},
    bodies: new Map(),
  };
  await runSteps(STEPS, ctx);
  return { envelope: envelope(ctx.data, ctx.page), mode: ctx.mode, loadMs: timings.get('render') ?? timings.get('fetch'), outbound: ctx.outbound };
}

const envelope = (data: Data, page: LoadedPage | undefined): Envelope => ({
  status: 'success',
  data,
  statusCode: page?.statusCode ?? null,
  redirects: page?.redirects ?? [],
  headers: page?.headers ?? {},
});
