/**
 * What the field rules read, gathered from the HTML in one streaming pass (htmlparser2's tokenizer events; no
 * DOM is built). Rules never look at the markup again, so each selector a rule needs has a slot here.
 */
import type { ShellFacts } from './client-shell.ts';

/**
 * A value longer than this is no title, description, name, date or address a reader would take, and the field rules
 * read each value several times over: attribute values and JSON-LD strings past it are left out, as if absent. Long
 * descriptions run to ~2 000 characters; what runs longer is configuration (JSON in a `<meta content>`, 10–90 kB)
 * or a `data:` URL, which no field reads.
 */
export const MAX_VALUE = 8192;

/** Texts captured by class, id, rel or position: metascraper's selector fallbacks, precomputed. */
export const TEXT_KEYS = [
  'h1', // <h1>
  'afterH1', // the text that follows an <h1>, where a dateline or byline under the headline is read
  'labelled', // a line of text that starts with a byline's label ("Autor:", "von"), to the next break after it
  'h1Home', // an <h1> that is the site's logo: a link home (`<h1><a href="/">`, `<a rel=home><h1>`), h1.site-title
  'paragraph', // <p> in the main content (article, main, .entry-content...), not in nav/header/footer
  'h1Title', // h1[class*=title]
  'h1TitleLink', // h1[class*=title] a
  'postTitle', // .post-title
  'entryTitle', // .entry-title
  'authorItemName', // [itemprop*=author] [itemprop=name]
  'authorItem', // [itemprop*=author]
  'relAuthor', // [rel=author]
  'authorClassLink', // a[class*=author]
  'linkInAuthorClass', // [class*=author] a
  'authorHref', // a[href*=/author/]
  'screenname', // a[class*=screenname]
  'authorClass', // [class*=author]
  'byline', // [class*=byline]
  'dateId', // [id*=date]
  'dateClass', // [class*=date]
  'timeClass', // [class*=time]
  'publishClass', // [class*=publish]
  'logoId', // #logo
  'logoClass', // .logo
  'brandLink', // a[class*=brand]
] as const;
export type TextKey = (typeof TEXT_KEYS)[number];

/** Filled in when its element closes; reserved when it opens, so lists stay in document order. */
export interface TextSlot {
  text: string;
}

export interface LinkFact {
  /** Lower-cased, single-spaced: `shortcut icon`, `apple-touch-icon`, `canonical`. */
  rel: string;
  href: string;
  sizes: string;
  type: string;
  hreflang: string;
}

export interface MicrodataFact {
  /** itemprop of the enclosing item (`author` for `<div itemprop=author itemscope><span itemprop=name>`). */
  scope: string;
  /** Lower-cased itemprop. */
  prop: string;
  /** From the attribute the element type carries its value in (content, href, src, datetime, value), if any. */
  attr: string | undefined;
  slot: TextSlot | undefined;
}

/** `<time datetime>` */
export interface TimeFact {
  datetime: string;
  itemprop: string;
}

export interface ImageFact {
  src: string;
  alt: string;
  /** Declared `width` / `height` attributes in pixels, NaN when absent. */
  width: number;
  height: number;
  inArticle: boolean;
  inContent: boolean;
  ariaHidden: boolean;
}

export interface MediaFact {
  tag: 'audio' | 'video' | 'source';
  /** For `<source>`: the element it sits in. */
  parent: string;
  src: string;
  type: string;
}

export interface PageFacts {
  /** The page's own URL and the base its relative URLs resolve against (`<base href>` honoured). */
  url: string;
  baseHref: string | undefined;
  htmlLang: string | undefined;
  title: string | undefined;
  /** `<meta>` content by lower-cased `property`, `name` and `itemprop` (each one a key), in document order;
   *  `http-equiv` values are keyed `http-equiv:<name>`. */
  meta: Map<string, string[]>;
  links: LinkFact[];
  jsonldBlocks: string[];
  microdata: MicrodataFact[];
  times: TimeFact[];
  texts: Record<TextKey, TextSlot[]>;
  images: ImageFact[];
  media: MediaFact[];
  posters: string[];
  /** `<a href>` targets that name an audio file. */
  audioLinks: string[];
  /** `[class*=logo] img[alt]` */
  logoAlts: string[];
  /** `<script src>` as written, in document order (technology fingerprints match them). */
  scriptSrcs: string[];
  /** What `prerender=auto` decides on (lib/extract/client-shell.ts). */
  shell: ShellFacts;
}

export function emptyFacts(url: string): PageFacts {
  const texts = {} as Record<TextKey, TextSlot[]>;
  for (const key of TEXT_KEYS) texts[key] = [];
  return {
    url,
    baseHref: undefined,
    htmlLang: undefined,
    title: undefined,
    meta: new Map(),
    links: [],
    jsonldBlocks: [],
    microdata: [],
    times: [],
    texts,
    images: [],
    media: [],
    posters: [],
    audioLinks: [],
    logoAlts: [],
    scriptSrcs: [],
    shell: { script: false, visible: 0 },
  };
}

/** The non-empty texts captured for a key, in document order, whitespace collapsed. */
export function texts(facts: PageFacts, key: TextKey): string[] {
  const out: string[] = [];
  for (const slot of facts.texts[key]) {
    const text = slot.text.replace(/\s+/g, ' ').trim();
    if (text !== '') out.push(text);
  }
  return out;
}

export function metaValues(facts: PageFacts, key: string): string[] {
  return facts.meta.get(key) ?? [];
}

/** Microdata values of the itemprops `prop` names or matches (optionally only inside an item held in `scope`). */
export function microdataValues(
  facts: PageFacts,
  prop: string | ((prop: string) => boolean),
  scope?: string,
): string[] {
  const match = typeof prop === 'string' ? (p: string) => p === prop : prop;
  const out: string[] = [];
  for (const item of facts.microdata) {
    if (!match(item.prop) || (scope !== undefined && item.scope !== scope)) continue;
    const value = item.attr ?? item.slot?.text.replace(/\s+/g, ' ').trim();
    if (value) out.push(value);
  }
  return out;
}
