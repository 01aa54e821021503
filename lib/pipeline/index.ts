/**
 * One request's work, in one direction: load the target (HTTP fetch, or Chromium when a feature needs it) →
 * extract → capture → store. Chromium is imported and started only when a request needs it: a metadata-only
 * request never loads puppeteer.
 */
import { Budget } from '../time/budget.ts';
import type { Config } from '../config.ts';
import { buildData } from './page-data.ts';
import type { MetaField } from '../extract/index.ts';
import type { Resolver } from '../fetch/index.ts';
import { mediaFromStored } from '../media/object.ts';
import { pingMedia, type PingCache } from '../ping/index.ts';
import { loadPage, type LoadedPage } from '../fetch/document.ts';
import type { Options } from '../query/options.ts';
import type { Envelope } from '../http/respond.ts';
import { isClientShell } from '../extract/client-shell.ts';
import type { Storage } from '../storage/index.ts';
import type { Timings } from '../time/timings.ts';

type Renderer = import('../browser/index.ts').Renderer;
type Capture = import('../browser/overlay.ts').Capture;

export interface PipelineDeps {
  config: Config;
  storage: Storage;
  renderer: () => Promise<Renderer>;
  resolver?: Resolver | undefined;
  /** Ping results shared across requests, so repeated media URLs are not fetched again. */
  pingCache: PingCache;
}

export type FetchMode = 'fetch' | 'prerender' | 'skipped';

/** Time kept back from loading for extraction, capture and answering, so a slow target ends in a precise error. */
const ANSWER_RESERVE_MS = 250;

export async function runPipeline(url: URL, options: Options, timings: Timings, deps: PipelineDeps) {
  const budget = new Budget(options.timeout);
  const fields = metaFields(options);
  const wantsBrowser = options.screenshot !== false || options.pdf !== false || options.prerender === true;

  let mode: FetchMode = 'skipped';
  let page: LoadedPage | undefined;
  let data: Record<string, unknown> = {};
  let captures: Captures = {};

  const render = async (html: boolean) => {
    const renderer = await timings.measure('launch', deps.renderer);
    const result = await timings.measure('render', () =>
      renderer.render({
        url,
        options,
        budget: budget.slice(Infinity, ANSWER_RESERVE_MS),
        capture: { screenshot: options.screenshot !== false, pdf: options.pdf !== false, html },
      }),
    );
    mode = 'prerender';
    captures = { screenshot: result.screenshot, pdf: result.pdf };
    const content = { kind: 'html' as const, html: result.html ?? '' };
    return { url: result.url, statusCode: result.statusCode, headers: result.headers, redirects: result.redirects, content };
  };

  if (wantsBrowser) {
    page = await render(fields.length > 0);
  } else if (fields.length > 0) {
    mode = 'fetch';
    page = await timings.measure('fetch', () =>
      loadPage(url, { config: deps.config, budget: budget.slice(Infinity, ANSWER_RESERVE_MS), headers: options.headers, resolver: deps.resolver }),
    );
  }
  if (page && fields.length > 0) {
    let built = await timings.measure('extract', () => buildData(page as LoadedPage, fields, options.ping));
    if (mode === 'fetch' && options.prerender === 'auto' && page.content.kind === 'html' && isClientShell(page.content.html, built.data.description as string | null)) {
      page = await render(true);
      built = await timings.measure('extract', () => buildData(page as LoadedPage, fields, options.ping));
    }
    const { media } = built;
    data = built.data;
    if (Object.keys(media).length > 0) {
      const probeDeps = { policy: deps.config.policy, userAgent: deps.config.userAgent, resolver: deps.resolver, cache: deps.pingCache };
      Object.assign(data, await timings.measure('ping', () => pingMedia(media, options.ping, budget.slice(Infinity, ANSWER_RESERVE_MS), probeDeps)));
    }
  }
  Object.assign(data, await storeCaptures(captures, options, budget, timings, deps));

  const envelope: Envelope = {
    status: 'success',
    data,
    statusCode: page?.statusCode ?? null,
    redirects: page?.redirects ?? [],
    headers: page?.headers ?? {},
  };
  return { envelope, mode, loadMs: timings.get('render') ?? timings.get('fetch') };
}

function metaFields(options: Options): MetaField[] {
  if (options.meta === false) return [];
  const extra: MetaField[] = [...(options.audio ? ['audio' as const] : []), ...(options.video ? ['video' as const] : [])];
  return [...new Set([...options.meta.fields, ...extra])];
}

type Rendered = Awaited<ReturnType<Renderer['render']>>;
type Captures = Pick<Rendered, 'screenshot' | 'pdf'>;

async function storeCaptures(captures: Captures, options: Options, budget: Budget, timings: Timings, deps: PipelineDeps) {
  const out: Record<string, unknown> = {};
  if (!captures.screenshot && !captures.pdf) return out;
  const shot = captures.screenshot;
  let screenshot: Capture | undefined = shot;
  if (shot && options.screenshot !== false && options.screenshot.overlay) {
    const { applyOverlay, imageFetcher } = await import('../browser/overlay.ts');
    const renderer = await deps.renderer();
    const { overlay, quality } = options.screenshot;
    const slice = budget.slice(Infinity, ANSWER_RESERVE_MS);
    screenshot = await timings.measure('overlay', () =>
      applyOverlay(shot, overlay, shot.deviceScaleFactor, quality, {
        renderHtml: (html, viewport, opts) => renderer.renderHtml(html, viewport, opts, slice),
        fetchImage: imageFetcher({
          policy: deps.config.policy,
          budget: slice,
          userAgent: deps.config.userAgent,
          maxBytes: deps.config.maxBodyBytes,
          resolver: deps.resolver,
        }),
      }),
    );
  }
  await timings.measure('store', async () => {
    const signal = budget.signal();
    if (screenshot) {
      const stored = await deps.storage.put(screenshot.body, screenshot.type === 'png' ? 'image/png' : 'image/jpeg', signal);
      out.screenshot = { ...mediaFromStored(stored), width: screenshot.width, height: screenshot.height };
    }
    if (captures.pdf) {
      out.pdf = mediaFromStored(await deps.storage.put(captures.pdf.body, 'application/pdf', signal));
    }
  });
  return out;
}
