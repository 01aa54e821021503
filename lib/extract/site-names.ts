/**
 * The names a site goes by, as comparison keys (lib/extract/text.ts `textKey`): what it declares (og:site_name,
 * application-name, its JSON-LD WebSite and publisher names, its logo's text) and its address's own
 * name ("autozeitung" of www.autozeitung.de; the archived page's own host under web.archive.org).
 */
import { texts } from './facts.ts';
import { asList, perPage, type Context } from './rules.ts';
import { ldText, meta, ofType } from './sources.ts';
import { textKey } from './text.ts';

/** A name longer than this is a tagline, not a name to compare headlines' affixes with. */
const MAX_NAME = 100;
/** An address label this short ("mz", "ft") matches too many words' starts to be taken as a prefix. */
const MIN_LABEL = 4;

const declared = (ctx: Context): string[] => [
  ...asList(meta('og:site_name', 'application-name', 'apple-mobile-web-app-title')(ctx)),
  ...asList(ldText('publisher.name')(ctx)),
  // An Organization node may be the page's subject (a company's profile): only the WebSite names the site.
  ...asList(ldText('name', { filter: ofType('WebSite') })(ctx)),
  ...texts(ctx.facts, 'logoId'),
  ...texts(ctx.facts, 'logoClass'),
  ...ctx.facts.logoAlts,
];

/** The host's own label: `autozeitung` for www.autozeitung.de, the archived host for a web.archive.org copy. */
function hostLabel(url: string): string | undefined {
  const archived = /^https?:\/\/(?:web\.)?archive\.org\/web\/[^/]+\/(.+)$/.exec(url)?.[1];
  const host = URL.parse(archived && !/^https?:/.test(archived) ? `http://${archived}` : (archived ?? url))?.hostname;
  const labels = host?.replace(/^www\d*\./, '').split('.') ?? [];
  return labels.length >= 2 ? textKey(labels.at(-2)!) : undefined;
}

export interface SiteNames {
  keys: ReadonlySet<string>;
  label: string | undefined;
}

export const siteNames = perPage((ctx): SiteNames => ({
  keys: new Set(declared(ctx).filter((name) => name.length <= MAX_NAME).map(textKey).filter(Boolean)),
  label: hostLabel(ctx.facts.url),
}));

/** Whether `part` is one of the names the site declares, word for word (no guess from its address). */
export const declaresSite = (part: string, { keys }: SiteNames): boolean => keys.has(textKey(part));

/** Whether `part` names the site: one of its names, or its address's label, alone or with a suffix ("DimidoBlog",
 *  "chefkoch.de"). */
export function namesSite(part: string, { keys, label }: SiteNames): boolean {
  const key = textKey(part);
  if (key === '') return false;
  return keys.has(key) || (label !== undefined && label.length >= MIN_LABEL && key.startsWith(label) && key.length <= label.length + 8);
}

