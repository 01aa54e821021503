/**
 * What the steps of one request share: the request (URL, options), its one budget and timings, what has been
 * loaded so far, the `data` being built and the captures waiting to be stored. Each step reads what earlier
 * steps left and adds its own part; nothing else carries state between them.
 */
import type { Config } from '../config.ts';
import type { Data, MediaField as PingField, MetaField } from '../data/fields.ts';
import type { Resolver, VettedUrl } from '../fetch/index.ts';
import type { LoadedPage } from '../fetch/document.ts';
import type { Hop } from '../guard/loop.ts';
import type { Outbound } from '../guard/outbound.ts';
import type { PingCache } from '../ping/index.ts';
import type { DataRules, LighthouseOptions, Options } from '../query/options.ts';
import type { Storage } from '../storage/index.ts';
import type { Budget } from '../time/budget.ts';
import type { Timings } from '../time/timings.ts';
import type { WorkPool } from '../work/pool.ts';
import type { Step as OrderedStep } from '../step-order.ts';
import type { ParsedPage } from './parsed.ts';

type Renderer = import('../browser/index.ts').Renderer;
type OembedProvider = import('../oembed/providers.ts').OembedProvider;
type Rendered = Awaited<ReturnType<Renderer['render']>>;

export interface PipelineDeps {
  readonly config: Config;
  readonly storage: Storage;
  /** Chromium, imported and started on first call only: a metadata-only request never loads puppeteer. */
  readonly renderer: () => Promise<Renderer>;
  readonly resolver?: Resolver | undefined;
  /** Ping results shared across requests, so repeated media URLs are not fetched again. */
  readonly pingCache: PingCache;
  /** The oEmbed provider registry, read on first call only (the shipped one; tests pass their own). */
  readonly oembedProviders: () => Promise<readonly OembedProvider[]>;
  /** Where CPU work over page content and rule values runs, off the event loop and within its budget (lib/work/). */
  readonly work: WorkPool;
  /** Where Lighthouse reports run: a worker of their own, with a browser of its own, one report at a time. */
  readonly audits: WorkPool;
  /** Chromium flags beyond the configuration's (tests keep Chromium's DNS on the machine), for every browser. */
  readonly browserArgs: readonly string[];
  /** Sent with a caller's media probes of this service's own address (NESTED_PROOF_HEADER, lib/guard/loop.ts). */
  readonly nestedProof: string;
}

export type FetchMode = 'fetch' | 'prerender' | 'skipped';

/** What the answer can show, given `embed` and `filter`: work for anything else is not done. */
export interface Wanted {
  /** Metadata fields to extract (the requested ones the output can show). */
  readonly fields: readonly MetaField[];
  /** Custom data rules of the fields the output shows; undefined when there are none. */
  readonly rules: DataRules | undefined;
  /** Distinct `evaluate` sources of those rules, run in the rendered page. */
  readonly evaluate: readonly string[];
  readonly screenshot: boolean;
  readonly pdf: boolean;
  /** `data.iframe`, from oEmbed. */
  readonly iframe: boolean;
  /** `data.insights.technologies`. */
  readonly technologies: boolean;
  /** `data.insights.lighthouse`: a report run in a page of its own (steps/lighthouse.ts). */
  readonly lighthouse: false | LighthouseOptions;
}

export interface Context {
  readonly url: VettedUrl;
  readonly options: Options;
  readonly budget: Budget;
  readonly timings: Timings;
  readonly deps: PipelineDeps;
  readonly wanted: Wanted;
  /** This answer's allowance of outbound requests (lib/guard/outbound.ts), shared by every step that fetches. */
  readonly outbound: Outbound;
  /** The loop mark of this answer's media probes (lib/guard/loop.ts): `1` for a caller's answer, `2` for a nested one. */
  readonly hop: Hop;
  mode: FetchMode;
  page: LoadedPage | undefined;
  /** The loaded HTML parsed once, when a step first asks (parsedPage); cleared when `page` changes. */
  parsed: Promise<ParsedPage | undefined> | undefined;
  /** Results of the rules' `evaluate` sources, from the rendered page. */
  evaluated: ReadonlyMap<string, unknown> | undefined;
  /** The response's `data`, field by field. */
  readonly data: Data;
  /** Per media field, the URLs a ping may try, best first (set by extraction). */
  media: Partial<Record<PingField, string[]>>;
  captures: Pick<Rendered, 'screenshot' | 'pdf'>;
  /** With `palette`: the bytes of each image the ping read whole, by URL (lib/ping/probe.ts). */
  readonly bodies: Map<string, Buffer>;
}

/** Whether the answer needs the page's HTML: for its metadata, custom rules, oEmbed discovery or technologies. */
export const needsHtml = ({ fields, rules, iframe, technologies }: Wanted): boolean =>
  fields.length > 0 || rules !== undefined || iframe || technologies;

/**
 * What steps hand on to later steps through the context, by part: `data.*` are groups of the response's fields
 * (`data.meta` the extracted metadata, `data.media` the pinged media fields, `data.captures` the stored screenshot and
 * PDF). What the request brings (url, options, wanted, budget, deps) is there from the start and is not listed.
 */
export type Part =
  | 'page'
  | 'mode'
  | 'evaluated'
  | 'captures'
  | 'media'
  | 'bodies'
  | 'data.meta'
  | 'data.rules'
  | 'data.iframe'
  | 'data.insights'
  | 'data.media'
  | 'data.captures';

/**
 * One stage of the pipeline (lib/step-order.ts's Step over the context): `wants` answers what its work is about
 * (narrowed: the loaded page, the settings asked for) or `undefined` for none, and `run` gets that answer; `reads` and
 * `writes` declare the parts it takes from earlier steps and leaves for later ones, checked in STEPS' order when
 * lib/pipeline/index.ts loads.
 */
export type Step<Input = unknown> = OrderedStep<Context, Part, Input>;

/** With `palette`, an image is read up to this size for its colours; a larger one gets no palette. */
export const PALETTE_MAX_BYTES = 5 * 1024 * 1024;
