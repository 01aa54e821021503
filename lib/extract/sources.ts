/** Small rule builders shared by the field files. */
import { metaValues, texts, type PageFacts, type TextKey } from './facts.ts';
import { asText, asUrl, typesOf, valuesAt, type Json, type JsonLd, type JsonObject } from './jsonld.ts';
import type { Context, Rule } from './rules.ts';

/** `<meta>` contents for `keys` (property, name and itemprop alike), in the order of the keys. */
export const meta =
  (...keys: string[]): Rule =>
  ({ facts }) => {
    const out: string[] = [];
    for (const key of keys) out.push(...metaValues(facts, key));
    return out;
  };

export const text =
  (key: TextKey): Rule =>
  ({ facts }) =>
    texts(facts, key);

/** `<link rel=…>` hrefs whose rel list holds `rel`. */
export const link =
  (rel: string): Rule =>
  ({ facts }) =>
    facts.links.filter((l) => l.rel.split(' ').includes(rel)).map((l) => l.href);

/** The schema.org types that describe the page's main content, whose properties win over a site-wide node's. */
const MAIN_TYPES = new Set([
  'Article', 'NewsArticle', 'BlogPosting', 'Report', 'ReportageNewsArticle', 'AnalysisNewsArticle',
  'OpinionNewsArticle', 'TechArticle', 'ScholarlyArticle', 'LiveBlogPosting', 'SocialMediaPosting',
  'DiscussionForumPosting', 'Blog', 'Recipe', 'Review', 'CreativeWork', 'MediaObject', 'VideoObject',
  'AudioObject', 'PodcastEpisode', 'Episode', 'Product', 'Event', 'Book', 'Movie', 'MusicRecording',
  'MusicPlaylist', 'Course', 'HowTo', 'QAPage', 'Question', 'JobPosting',
]);

export function isMainNode(node: JsonObject): boolean {
  return typesOf(node).some((type) => MAIN_TYPES.has(type));
}

const ordered = new WeakMap<JsonLd, JsonObject[]>();

/** JSON-LD nodes, main-content ones first, document order otherwise. */
export function ldNodes(ctx: Context): JsonObject[] {
  const ld = ctx.jsonld();
  let nodes = ordered.get(ld);
  if (!nodes) {
    nodes = [...ld.nodes.filter(isMainNode), ...ld.nodes.filter((n) => !isMainNode(n))];
    ordered.set(ld, nodes);
  }
  return nodes;
}

export function ldValues(
  ctx: Context,
  path: string,
  nodes: readonly JsonObject[] = ldNodes(ctx),
  follow = true,
): Json[] {
  const ld = ctx.jsonld();
  const steps = path.split('.');
  const out: Json[] = [];
  for (const node of nodes) out.push(...valuesAt(ld, node, steps, follow));
  return out;
}

export interface LdOptions {
  filter?: (node: JsonObject) => boolean;
  /** false: only values written inline, not ones reached through an `@id` reference. */
  follow?: boolean;
}

/** JSON-LD strings (or objects' names) at `path`, main-content nodes first. */
export const ldText =
  (path: string, { filter, follow = true }: LdOptions = {}): Rule =>
  (ctx) => {
    const nodes = filter ? ldNodes(ctx).filter(filter) : ldNodes(ctx);
    return ldValues(ctx, path, nodes, follow).map(asText).filter((v) => v !== undefined);
  };

/** JSON-LD URLs (strings, or ImageObject/MediaObject `url` / `contentUrl`) at `path`. */
export const ldUrl =
  (path: string, { filter, follow = true }: LdOptions = {}): Rule =>
  (ctx) => {
    const nodes = filter ? ldNodes(ctx).filter(filter) : ldNodes(ctx);
    return ldValues(ctx, path, nodes, follow).map(asUrl).filter((v) => v !== undefined);
  };

export const ofType =
  (...types: string[]) =>
  (node: JsonObject): boolean =>
    typesOf(node).some((t) => types.includes(t));

/** The page's language tag as it declares it (`de-CH`, `en_GB`): what its dates and bylines are written in. */
export const declaredLang = (facts: PageFacts): string | undefined =>
  [facts.htmlLang, ...metaValues(facts, 'http-equiv:content-language'), ...metaValues(facts, 'og:locale')]
    .map((tag) => /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})?$/i.exec(tag?.trim() ?? '')?.[0])
    .find((tag) => tag !== undefined);
