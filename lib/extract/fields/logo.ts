import { microdataValues, type LinkFact } from '../facts.ts';
import { typesOf, type Json } from '../jsonld.ts';
import { kindOfUrl } from '../../media/types.ts';
import type { FieldSpec, Rule } from '../rules.ts';
import { ldNodes, ldValues, meta } from '../sources.ts';

/** Unsized icons by kind, best first: touch icons are large bitmaps, mask icons are single-colour SVGs. */
const REL_RANK: readonly string[] = [
  'apple-touch-icon', 'apple-touch-icon-precomposed', 'fluid-icon', 'icon', 'shortcut icon', 'mask-icon',
];

function relRank(rel: string): number {
  const rank = REL_RANK.indexOf(rel);
  return rank === -1 ? REL_RANK.length : rank;
}

/** Largest square side declared by `sizes` (`32x32 64x64`) or written in the file name (`icon-192x192.png`). */
export function iconSize(link: Pick<LinkFact, 'sizes' | 'href'>): number {
  let best = 0;
  for (const match of `${link.sizes} ${link.href}`.matchAll(/(\d{1,4})\s*[x×]\s*(\d{1,4})/gi)) {
    best = Math.max(best, Math.min(Number(match[1]), Number(match[2])));
  }
  return best;
}

/**
 * How much a format is worth per pixel (metascraper's weighting, hence Microlink's): PNG (and touch icons,
 * PNGs by definition) over JPEG over SVG over ICO, whose files are often just 16px.
 */
function formatWeight(href: string): number {
  const path = href.toLowerCase().split(/[?#]/)[0] ?? '';
  if (/apple|android/.test(path) || path.endsWith('png')) return 5;
  if (path.endsWith('jpg') || path.endsWith('jpeg')) return 4;
  if (path.endsWith('svg')) return 3;
  if (path.endsWith('ico')) return 2;
  return 1;
}

/** Icons best first: mask icons (single-colour silhouettes) last, then by size × format weight, then rel. */
const icons: Rule = ({ facts }) =>
  facts.links
    .filter((link) => link.rel.includes('icon'))
    .map((link, index) => ({
      link,
      index,
      mask: link.rel === 'mask-icon',
      score: Math.max(iconSize(link), 1) * formatWeight(link.href),
      rank: relRank(link.rel),
    }))
    .sort((a, b) => Number(a.mask) - Number(b.mask) || b.score - a.score || a.rank - b.rank || a.index - b.index)
    .map(({ link }) => link.href);

const tiles: Rule = ({ facts }) => [
  ...(facts.meta.get('msapplication-tileimage') ?? []),
  ...(facts.meta.get('msapplication-square150x150logo') ?? []),
];

const ORGANIZATIONS = ['Organization', 'NewsMediaOrganization', 'Corporation', 'Brand', 'WebSite', 'LocalBusiness'];

interface LdLogo {
  url: string;
  square: boolean;
  /** Declared width in pixels, 0 when not given. */
  width: number;
}

/** Publisher and organization logos from JSON-LD, with whether their declared size is square. */
function ldLogos(ctx: Parameters<Rule>[0]): LdLogo[] {
  const values: Json[] = [
    ...ldValues(ctx, 'publisher.logo'),
    ...ldValues(ctx, 'logo', ldNodes(ctx).filter((n) => typesOf(n).some((t) => ORGANIZATIONS.includes(t)))),
    ...ldValues(ctx, 'brand.logo'),
  ];
  const out: LdLogo[] = [];
  for (const value of values) {
    if (typeof value === 'string') out.push({ url: value, square: false, width: 0 });
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const url = value['url'] ?? value['contentUrl'];
      const width = Number(value['width']);
      if (typeof url === 'string') out.push({ url, square: width > 0 && width === Number(value['height']), width: width || 0 });
    }
  }
  return out;
}

/** A page's own square logo beats its icons; wide wordmarks (600×60, Google's AMP format) come after them. */
export const logo: FieldSpec = {
  rules: [
    meta('og:logo', 'logo'),
    ({ facts }) => microdataValues(facts, 'logo'),
    (ctx) => ldLogos(ctx).filter((l) => l.square).map((l) => l.url),
    icons,
    tiles,
    (ctx) => ldLogos(ctx).map((l) => l.url),
  ],
  // Browsers ask for it when nothing is declared, so most sites serve one; worth a ping, not a claim.
  guesses: [({ facts }) => URL.parse('/favicon.ico', facts.url)?.href],
  accept(raw, ctx) {
    const url = ctx.resolve(raw);
    return url && kindOfUrl(url) === undefined ? url : undefined;
  },
};

/** Apple's touch icons are square by definition; unsized, they are 180×180 (Apple's current default). */
const TOUCH_ICON_SIDE = 180;

/** The largest side of a square size declared by `sizes`, else written in the file name; 0 when none is square. */
export function squareSide(link: Pick<LinkFact, 'sizes' | 'href' | 'rel'>): number {
  const sides = (text: string) =>
    [...text.matchAll(/(\d{1,4})\s*[x×]\s*(\d{1,4})/gi)].filter((m) => m[1] === m[2]).map((m) => Number(m[1]));
  const declared = sides(link.sizes);
  const found = declared.length > 0 || link.sizes.trim() !== '' ? declared : sides(link.href);
  if (found.length > 0) return Math.max(...found);
  return link.rel.startsWith('apple-touch-icon') ? TOUCH_ICON_SIDE : 0;
}

/** Windows tiles are square: `square150x150logo` by name, `TileImage` at 144×144. */
const TILE_SIDES: ReadonlyArray<[string, number]> = [['msapplication-square150x150logo', 150], ['msapplication-tileimage', 144]];

/** Every logo the page declares square, largest first: sized icons, touch icons, JSON-LD logos, Windows tiles. */
const squares: Rule = (ctx) => {
  const { facts } = ctx;
  const found: Array<{ url: string; side: number }> = [];
  for (const link of facts.links) {
    if (link.rel.includes('icon') && link.rel !== 'mask-icon') found.push({ url: link.href, side: squareSide(link) });
  }
  for (const logo of ldLogos(ctx)) if (logo.square) found.push({ url: logo.url, side: logo.width });
  for (const [name, side] of TILE_SIDES) for (const url of facts.meta.get(name) ?? []) found.push({ url, side });
  // A stable sort keeps document order among equal sides.
  return found.filter((f) => f.side > 0).sort((a, b) => b.side - a.side).map((f) => f.url);
};

/**
 * `meta.logo.square`: Microlink's square variant, "the right pick for avatars and app icons": the largest logo the
 * page declares square, then the usual order when it declares none.
 */
export const squareLogo: FieldSpec = { ...logo, rules: [squares, ...logo.rules] };
