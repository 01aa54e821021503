/**
 * The three extractors under comparison, each as `(page) => values` on the corpus field names, offline.
 *
 * metascraper runs with the rule packages Microlink's own integration tests use (the fixtures' meta.json
 * `rules_used_upstream`, in that order; metascraper-x is left out: it is x.com-specific and its two pages are
 * caveated). Every network lookup in them is stubbed, since the benchmark never leaves 127.0.0.1:
 * - metascraper-logo-favicon: declared icons count as reachable without a probe (`resolveFaviconUrl`), and the
 *   guesses that only a probe could confirm (`/favicon.ico`, Google's s2 service, the root domain's favicon) are off;
 * - metascraper-manifest: its got client refuses every request (`beforeRequest` throws), so only a `data:`
 *   manifest is read;
 * - metascraper-audio / metascraper-video: an `<iframe>` or `twitter:player` page is an empty document
 *   (`getIframe`) instead of being fetched and run in jsdom.
 */
import metascraper from 'metascraper';
import metascraperAudio from 'metascraper-audio';
import metascraperAuthor from 'metascraper-author';
import metascraperDate from 'metascraper-date';
import metascraperDescription from 'metascraper-description';
import metascraperImage from 'metascraper-image';
import metascraperLang from 'metascraper-lang';
import metascraperLogo from 'metascraper-logo';
import metascraperLogoFavicon from 'metascraper-logo-favicon';
import metascraperManifest from 'metascraper-manifest';
import metascraperPublisher from 'metascraper-publisher';
import metascraperReadability from 'metascraper-readability';
import metascraperTitle from 'metascraper-title';
import metascraperUrl from 'metascraper-url';
import metascraperVideo from 'metascraper-video';
import ogs from 'open-graph-scraper';
import { extractMetadata } from '../../lib/extract/index.ts';
import type { CorpusPage, ScoredField } from '../../tests/helpers/corpus.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

export type Values = Partial<Record<ScoredField, string | null | undefined>>;

export interface Extractor {
  readonly name: string;
  extract(page: Pick<CorpusPage, 'html' | 'url'>): Promise<Values> | Values;
}

export const glance: Extractor = {
  name: 'glance',
  extract: (page) => extractMetadata({ html: page.html, url: page.url }).values,
};

type IframeLoader = NonNullable<Parameters<typeof metascraperAudio>[0]>['getIframe'];
type FaviconResolver = NonNullable<Parameters<typeof metascraperLogoFavicon>[0]>['resolveFaviconUrl'];
type GotOptions = NonNullable<Parameters<typeof metascraperManifest>[0]>['gotOpts'];

// The declared type says string; metascraper awaits a cheerio document (helpers' loadIframe returns one).
const emptyIframe = ((_url: string, $: { load(html: string): unknown }) => $.load('')) as unknown as IframeLoader;
const declaredIconIsReachable = (async (url: string) => ({ url })) as unknown as FaviconResolver;
const offlineGot = {
  retry: { limit: 0 },
  hooks: {
    beforeRequest: [
      () => {
        throw new Error('offline benchmark: no network');
      },
    ],
  },
} as unknown as GotOptions;

function createMetascraper(readability: boolean) {
  return metascraper([
    metascraperAuthor(),
    metascraperDate(),
    metascraperDescription(),
    metascraperAudio({ getIframe: emptyIframe }),
    metascraperVideo({ getIframe: emptyIframe }),
    metascraperImage(),
    metascraperLang(),
    metascraperLogo(),
    metascraperLogoFavicon({ favicon: false, google: false, rootFavicon: false, resolveFaviconUrl: declaredIconIsReachable }),
    metascraperManifest({ gotOpts: offlineGot }),
    metascraperPublisher(),
    metascraperTitle(),
    metascraperUrl(),
    ...(readability ? [metascraperReadability()] : []),
  ]);
}

const asString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function fromMetascraper(name: string, readability: boolean): Extractor {
  const scrape = createMetascraper(readability);
  return {
    name,
    async extract(page) {
      const out = (await scrape({ url: page.url, html: page.html })) as Record<string, unknown>;
      return Object.fromEntries(
        (['title', 'description', 'image', 'logo', 'author', 'publisher', 'date', 'lang', 'url', 'audio', 'video'] as const).map(
          (field) => [field, asString(out[field])],
        ),
      );
    },
  };
}

/** Microlink's rule set (with metascraper-readability, the slow fallback for title/description/author/lang/publisher). */
export const metascraperFull = fromMetascraper('metascraper', true);
/** The same without metascraper-readability, for throughput only. */
export const metascraperLean = fromMetascraper('metascraper (no readability)', false);

type OgsResult = Awaited<ReturnType<typeof ogs>>['result'];
const first = <T>(list: readonly T[] | undefined): T | undefined => list?.[0];

/**
 * open-graph-scraper's result on the corpus field names, as the fixtures' own expected.json was mapped from
 * expected.native.json (inferred from all 76 pages; a fallback key only when the first is absent).
 */
export function mapOgs(result: OgsResult): Values {
  const r = result as OgsResult & Record<string, unknown>;
  return {
    title: r.ogTitle ?? r.twitterTitle ?? null,
    description: r.ogDescription ?? r.twitterDescription ?? null,
    image: first(r.ogImage)?.url ?? first(r.twitterImage)?.url ?? null,
    logo: r.favicon ?? asString(r['ogLogo']),
    publisher: r.ogSiteName ?? null,
    url: r.ogUrl ?? null,
    date: r.ogDate ?? r.articlePublishedTime ?? asString(r['ogArticlePublishedTime']),
    lang: r.ogLocale ?? null,
    author: r.author ?? r.articleAuthor ?? asString(r['ogArticleAuthor']),
    audio: r.ogAudioSecureURL ?? r.ogAudioURL ?? r.ogAudio ?? null,
    video: first(r.ogVideo)?.url ?? null,
  };
}

export const openGraphScraper: Extractor = {
  name: 'open-graph-scraper',
  async extract(page) {
    try {
      const { result } = await ogs({ html: page.html });
      return mapOgs(result);
    } catch (error) {
      // ogs rejects with its result when it found no Open Graph data at all; its fallbacks are still in it.
      const result = (error as { result?: OgsResult }).result;
      return result ? mapOgs(result) : {};
    }
  },
};
