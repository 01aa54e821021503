import type { Handler, ParserOptions } from 'htmlparser2';
import { kindOfExtension } from '../media/types.ts';
import { emptyFacts, MAX_VALUE, type PageFacts, type TextKey, type TextSlot } from './facts.ts';
import { boundedParser, feed, type FeedOptions } from './parse.ts';
import type { Text } from '../text/pieces.ts';
import { ShellSigns } from './client-shell.ts';
import { BYLINE_LABEL, MAX_LABELLED_LINE } from './byline-label.ts';

/** Per-element flags inherited by descendants. */
const IN_SVG = 1;
const IN_ARTICLE = 2;
const IN_CONTENT = 4;
const IN_AUTHOR_CLASS = 8;
const IN_AUTHOR_ITEMPROP = 16;
const IN_H1_TITLE = 32;
const IN_LOGO_CLASS = 64;
const IN_MAIN = 128;
const IN_CHROME = 256;
/** Inside `<noscript>`: shown only without scripts, so not what a shell's body shows. */
const IN_NOSCRIPT = 512;
const IN_H1 = 1024;
const IN_HOME_LINK = 2048;
/** Inside readers' comments: their authors and dates are the comments', never the page's. */
const IN_COMMENTS = 4096;
const COMMENTS =
  /(?:^|\s)(?:comments?|comments?-(?:list|area|section|body|content|meta)|commentlist|replies|respond|disqus_thread|\S*(?:comment|message|reply)-author)(?:$|\s)/;

/** Containers of a page's main text, by the class names CMSs give them (`entry-content`, `articleBody`...). */
const MAIN_CLASS = /(?:^|\s)(?:post|entry|article|story)(?:[-_]?(?:body|content|text))?(?:\s|$)/;
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'form', 'dialog']);

/**
 * A selector rarely needs more than its first few matches; capping them bounds the work on huge pages. The field
 * rules then read each value several times over (entities, spaces, keys, prefixes): what they are given is bounded
 * here, so that a page of hostile metadata costs them milliseconds (bench/stall.ts), not a tenth of a second each.
 */
const MAX_SLOTS = 6;
const MAX_TEXT = 600;
/** A dateline or byline under a headline is in the first lines after it. */
const MAX_AFTER = 200;
const MAX_LIST = 60;
const MAX_SCRIPTS = 200;
/**
 * Values kept of one `<meta>` name (MAX_PER_NAME), of one kind of link (rel, type, x-default or not: MAX_NAMES), of one
 * microdata property in one scope (MAX_LIST), and distinct names of each (MAX_NAMES): far more than any field reads,
 * and a page may list hundreds of hreflang alternates before its canonical link, or product names before its author's.
 */
const MAX_PER_NAME = 16;
const MAX_NAMES = 200;
/** JSON-LD text kept in all; a block that would pass it is left out whole (a cut one is not JSON). */
const MAX_JSONLD = 1_000_000;

/** Elements whose boundary separates words, so captured text gets a space there. */
const BREAKS = new Set([
  'br', 'p', 'div', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'tr', 'section', 'article',
  'header', 'footer', 'dt', 'dd', 'figure', 'figcaption', 'blockquote', 'address', 'time', 'hr', 'img', 'button',
]);

/** Extensions that end the link or a part of it (`/a.mp3`, `/play.php?f=a.mp3`); lib/media/types.ts names the audio ones. */
const LINK_EXTENSIONS = /\.([a-z0-9]{2,5})(?=[?#]|$)/gi;
const isAudioLink = (href: string): boolean =>
  [...href.matchAll(LINK_EXTENSIONS)].some(([, ext]) => kindOfExtension(ext!.toLowerCase()) === 'audio');

/** An `<h1>` of these classes is the site's name (WordPress's `site-title`), not a headline. */
const LOGO_CLASS = /(?:^|[\s_-])(?:site-?title|site-?name|logo|brand)(?:$|[\s_-])/i;

/** A link to the site's home page: `rel=home`, or the root of a site (an archived copy's root included). */
function isHomeLink(href: string, rel: string | undefined): boolean {
  if (rel !== undefined && /(?:^|\s)home(?:\s|$)/i.test(rel)) return true;
  return /^(?:(?:https?:)?\/\/[^/?#]+)?(?:\/web\/\d+\/(?:https?:\/\/)?[^/?#]+)?\/?(?:index\.\w{2,5})?$/i.test(href.trim()) && href.trim() !== '';
}

/** Where an element carries its microdata value, by tag (HTML §5.2.4 "values"); others carry it as text. */
const VALUE_ATTR: Readonly<Record<string, string>> = {
  meta: 'content', a: 'href', area: 'href', link: 'href', img: 'src', audio: 'src', video: 'src', source: 'src',
  embed: 'src', iframe: 'src', track: 'src', object: 'data', time: 'datetime', data: 'value', meter: 'value',
};

type Attribs = Record<string, string>;

const PARSER_OPTIONS: ParserOptions = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

/** Page facts from one pass of htmlparser2's events over the HTML, in one go (small pages, tests). */
export function collectFacts(html: string, url: string): PageFacts {
  const collector = new Collector(url);
  boundedParser(collector, PARSER_OPTIONS).end(html);
  return collector.done();
}

/** The same facts, parsed in slices that give the event loop back (lib/extract/parse.ts): what requests use. */
export async function readFacts(html: Text, url: string, options: FeedOptions = {}): Promise<PageFacts> {
  const collector = new Collector(url);
  await feed(boundedParser(collector, PARSER_OPTIONS), html, options);
  return collector.done();
}

class Collector implements Partial<Handler> {
  private readonly facts: PageFacts;
  /** Per open element, innermost last: inherited flags, tag name, itemprop of the enclosing microdata item. */
  private readonly flags: number[] = [0];
  private readonly names: string[] = [''];
  private readonly scopes: string[] = [''];
  /** Texts being captured, each until the element it started at closes. */
  private captures: { slot: TextSlot; depth: number }[] = [];
  /** Texts being captured after an element closed, each until it holds MAX_AFTER characters. */
  private trailing: TextSlot[] = [];
  /** The line a byline's label started, captured to the next break. */
  private labelled: TextSlot | undefined;
  /** No text since the last break: a byline's label starts a line ("… the book <em>ML</em> by Larry C. Paulson" is
   *  a sentence's). */
  private lineStart = true;
  /** Inside a JSON-LD script (its text is kept) or another script or style (its text is ignored). */
  private raw: 'ld' | 'skip' | undefined;
  /** `<template>`s open: their text is ignored, a `<style>` or `<script>` closing inside one included. */
  private templates = 0;
  private ldText = '';
  /** JSON-LD text kept so far, and whether the block being read has passed MAX_JSONLD. */
  private ldKept = 0;
  private ldOver = false;
  private titleSlot: TextSlot | undefined;
  private readonly shell = new ShellSigns();
  private readonly counted = { meta: new Counted(MAX_PER_NAME), links: new Counted(MAX_NAMES), microdata: new Counted(MAX_LIST) };

  constructor(url: string) {
    this.facts = emptyFacts(url);
  }

  done(): PageFacts {
    this.facts.title = this.titleSlot?.text;
    this.facts.shell = this.shell.done();
    return this.facts;
  }

  onopentag(name: string, all: Attribs): void {
    const attribs = bounded(all);
    const parent = this.flags[this.flags.length - 1]!;
    const depth = this.names.length;
    this.shell.opened(name);
    if (this.captures.length > 0 && BREAKS.has(name)) for (const c of this.captures) if (c.slot.text.length < MAX_TEXT) c.slot.text += ' ';
    if (BREAKS.has(name)) {
      for (const slot of this.trailing) slot.text += ' ';
      this.breakLabelled();
    }
    const [scope, itemFlags] = this.microdata(name, attribs, parent, depth);
    const own = this.element(name, attribs, parent, depth) | this.classes(name, attribs, parent, depth) | itemFlags;
    this.flags.push(parent | own);
    this.names.push(name);
    this.scopes.push(scope);
  }

  ontext(text: string): void {
    if (this.raw === 'ld') {
      if (this.ldKept + this.ldText.length + text.length > MAX_JSONLD) this.ldOver = true;
      else this.ldText += text;
    }
    if (this.raw !== undefined) return;
    if (!(this.flags[this.flags.length - 1]! & (IN_SVG | IN_NOSCRIPT))) this.shell.text(text);
    for (const c of this.captures) if (c.slot.text.length < MAX_TEXT) c.slot.text += within(text, MAX_TEXT - c.slot.text.length);
    this.label(text);
    if (this.trailing.length > 0 && !(this.flags[this.flags.length - 1]! & IN_COMMENTS)) {
      for (const slot of this.trailing) slot.text += within(text, MAX_AFTER - slot.text.length);
      this.trailing = this.trailing.filter((slot) => slot.text.length < MAX_AFTER);
    }
  }

  onclosetag(name: string): void {
    if (name === 'script' || name === 'style' || name === 'template') {
      if (this.raw === 'ld' && !this.ldOver && this.ldText.trim() !== '') {
        this.facts.jsonldBlocks.push(this.ldText);
        this.ldKept += this.ldText.length;
      }
      if (name === 'template') this.templates = Math.max(0, this.templates - 1);
      this.raw = this.templates > 0 ? 'skip' : undefined;
    }
    this.shell.closed();
    if (BREAKS.has(name)) this.breakLabelled();
    if (name === 'h1' && this.facts.texts.afterH1.length < MAX_SLOTS) {
      const slot: TextSlot = { text: '' };
      this.facts.texts.afterH1.push(slot);
      this.trailing.push(slot);
    }
    this.flags.pop();
    this.names.pop();
    this.scopes.pop();
    const depth = this.names.length;
    const last = this.captures[this.captures.length - 1];
    if (last && last.depth >= depth) this.captures = this.captures.filter((c) => c.depth < depth);
  }

  /** A line that starts with a byline's label opens a capture; the text after it goes on the open one. */
  private label(text: string): void {
    const open = this.labelled;
    if (open) {
      if (open.text.length < MAX_LABELLED_LINE) open.text += within(text, MAX_LABELLED_LINE - open.text.length);
      return;
    }
    const line = text.trimStart();
    const starts = this.lineStart;
    if (line !== '') this.lineStart = false;
    if (!starts || line.length > MAX_LABELLED_LINE || this.facts.texts.labelled.length >= MAX_SLOTS) return;
    if (this.flags[this.flags.length - 1]! & (IN_COMMENTS | IN_CHROME | IN_SVG) || !BYLINE_LABEL.test(line)) return;
    const slot: TextSlot = { text: line };
    this.facts.texts.labelled.push(slot);
    this.labelled = slot;
  }

  /** A break ends the labelled line: a label and its name are written on one line. */
  private breakLabelled(): void {
    this.labelled = undefined;
    this.lineStart = true;
  }

  private capture(key: TextKey | TextSlot[], depth: number): TextSlot | undefined {
    const list = typeof key === 'string' ? this.facts.texts[key] : key;
    if (list.length >= MAX_SLOTS) return undefined;
    const slot: TextSlot = { text: '' };
    list.push(slot);
    this.captures.push({ slot, depth });
    return slot;
  }

  /** What the tag itself tells; returns the flags it passes down. */
  private element(name: string, attribs: Attribs, parent: number, depth: number): number {
    const { facts } = this;
    switch (name) {
      case 'meta':
        onMeta(facts, attribs, this.counted.meta);
        return 0;
      case 'link':
        onLink(facts, attribs, this.counted.links);
        return 0;
      case 'title':
        if (!this.titleSlot && !(parent & IN_SVG)) {
          this.titleSlot = { text: '' };
          this.captures.push({ slot: this.titleSlot, depth });
        }
        return 0;
      case 'script':
        if (attribs['src'] && facts.scriptSrcs.length < MAX_SCRIPTS) facts.scriptSrcs.push(attribs['src']);
        this.raw = (attribs['type'] ?? '').toLowerCase().includes('ld+json') ? 'ld' : 'skip';
        this.ldText = '';
        this.ldOver = false;
        return 0;
      case 'template':
        this.templates++;
        this.raw = 'skip';
        return 0;
      case 'style':
        this.raw = 'skip';
        return 0;
      case 'base':
        if (facts.baseHref === undefined && attribs['href']) facts.baseHref = attribs['href'];
        return 0;
      case 'html':
        facts.htmlLang ??= attribs['lang'] || attribs['xml:lang'] || undefined;
        return 0;
      case 'svg':
        return IN_SVG;
      case 'noscript':
        return IN_NOSCRIPT;
      case 'article':
        return IN_ARTICLE | IN_MAIN;
      case 'main':
        return IN_MAIN;
      case 'p':
        if ((parent & (IN_MAIN | IN_CHROME)) === IN_MAIN) this.capture('paragraph', depth);
        return 0;
      case 'h1': {
        this.capture('h1', depth);
        if (parent & IN_HOME_LINK || LOGO_CLASS.test(attribs['class'] ?? '')) this.capture('h1Home', depth);
        if (!(attribs['class'] ?? '').toLowerCase().includes('title')) return IN_H1;
        this.capture('h1Title', depth);
        return IN_H1 | IN_H1_TITLE;
      }
      case 'time':
        if (attribs['datetime'] && facts.times.length < MAX_LIST) {
          facts.times.push({ datetime: attribs['datetime'], itemprop: (attribs['itemprop'] ?? '').toLowerCase() });
        }
        return 0;
      case 'img':
        onImage(facts, attribs, parent);
        if (parent & IN_LOGO_CLASS && attribs['alt']) add(facts.logoAlts, attribs['alt']);
        return 0;
      case 'audio':
      case 'video':
      case 'source':
        if (attribs['src']) {
          const parentName = this.names[this.names.length - 1]!;
          add(facts.media, { tag: name, parent: parentName, src: attribs['src'], type: attribs['type'] ?? '' });
        }
        if (name === 'video' && attribs['poster']) add(facts.posters, attribs['poster']);
        return 0;
      case 'a': {
        const href = attribs['href'] ?? '';
        const cls = (attribs['class'] ?? '').toLowerCase();
        if (isAudioLink(href)) add(facts.audioLinks, href);
        if (parent & IN_H1_TITLE) this.capture('h1TitleLink', depth);
        const byReader = (parent & IN_COMMENTS) !== 0 || COMMENTS.test(cls);
        if (parent & IN_AUTHOR_CLASS && !byReader) this.capture('linkInAuthorClass', depth);
        if (cls.includes('author') && !byReader) this.capture('authorClassLink', depth);
        if (cls.includes('screenname')) this.capture('screenname', depth);
        if (cls.includes('brand')) this.capture('brandLink', depth);
        if (href.toLowerCase().includes('/author/') && !byReader) this.capture('authorHref', depth);
        if (!isHomeLink(href, attribs['rel'])) return 0;
        if (parent & IN_H1) this.capture('h1Home', depth);
        return IN_HOME_LINK;
      }
      default:
        return CHROME_TAGS.has(name) ? IN_CHROME : 0;
    }
  }

  /** What class, id, role and rel say, the way metascraper's selectors read them. */
  private classes(name: string, attribs: Attribs, parent: number, depth: number): number {
    const cls = attribs['class'] ? attribs['class'].toLowerCase() : '';
    const id = attribs['id'] ? attribs['id'].toLowerCase() : '';
    let flags = COMMENTS.test(cls) || COMMENTS.test(id) ? IN_COMMENTS : 0;
    if (cls !== '' && !((parent | flags) & IN_COMMENTS)) {
      const mainish = cls.includes('post') || cls.includes('entry') || cls.includes('article') || cls.includes('story');
      if (mainish && MAIN_CLASS.test(cls)) flags |= IN_MAIN;
      if (cls.includes('modal') || cls.includes('overlay')) flags |= IN_CHROME;
      if (cls.includes('author')) {
        flags |= IN_AUTHOR_CLASS;
        this.capture('authorClass', depth);
      }
      if (cls.includes('byline')) this.capture('byline', depth);
      if (cls.includes('date')) this.capture('dateClass', depth);
      if (cls.includes('time')) this.capture('timeClass', depth);
      if (cls.includes('publish')) this.capture('publishClass', depth);
      if (cls.includes('logo')) {
        flags |= IN_LOGO_CLASS;
        if (hasClass(cls, 'logo')) this.capture('logoClass', depth);
      }
      if (cls.includes('-title')) {
        if (hasClass(cls, 'post-title')) this.capture('postTitle', depth);
        if (hasClass(cls, 'entry-title')) this.capture('entryTitle', depth);
      }
    }
    if (id !== '') {
      if (id.includes('date') && !((parent | flags) & IN_COMMENTS)) this.capture('dateId', depth);
      if (id === 'logo') this.capture('logoId', depth);
      if (id === 'content') flags |= IN_CONTENT;
    }
    if (attribs['role'] === 'main') flags |= IN_MAIN;
    if (name !== 'link' && attribs['rel']?.toLowerCase() === 'author' && !((parent | flags) & IN_COMMENTS)) this.capture('relAuthor', depth);
    return flags;
  }

  /** Records an itemprop's value; returns the item scope descendants belong to and the flags passed down. */
  private microdata(name: string, attribs: Attribs, parent: number, depth: number): [string, number] {
    const scope = this.scopes[this.scopes.length - 1]!;
    const itemprop = attribs['itemprop'] ? attribs['itemprop'].toLowerCase().trim() : '';
    const itemscope = attribs['itemscope'] !== undefined;
    if (itemprop === '') return [itemscope ? '' : scope, 0];
    let flags = itemprop === 'articlebody' ? IN_MAIN : 0;
    if (itemprop.includes('author')) {
      flags |= IN_AUTHOR_ITEMPROP;
      this.capture('authorItem', depth);
    }
    if (itemprop === 'name' && parent & IN_AUTHOR_ITEMPROP) this.capture('authorItemName', depth);
    if (itemscope) return [itemprop, flags];
    const attrName = VALUE_ATTR[name];
    const attr = (attrName ? attribs[attrName] : undefined) ?? attribs['content'];
    if (!this.counted.microdata.take(`${scope} ${itemprop}`)) return [scope, flags];
    this.facts.microdata.push({
      scope,
      prop: itemprop,
      attr,
      slot: attr === undefined ? this.capture([], depth) : undefined,
    });
    return [scope, flags];
  }
}

function onMeta(facts: PageFacts, attribs: Attribs, counted: Counted): void {
  const content = attribs['content'] ?? attribs['value'];
  if (content === undefined) return;
  const keys = ['property', 'name', 'itemprop'].map((attr) => attribs[attr]?.trim().toLowerCase());
  const equiv = attribs['http-equiv'];
  if (equiv) keys.push(`http-equiv:${equiv.trim().toLowerCase()}`);
  for (const key of keys) if (key && counted.take(key)) push(facts.meta, key, content);
}

function onLink(facts: PageFacts, attribs: Attribs, counted: Counted): void {
  const href = attribs['href'];
  const rel = (attribs['rel'] ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  const type = attribs['type'] ?? '';
  const hreflang = attribs['hreflang'] ?? '';
  if (!href || !counted.take(`${rel} ${type} ${hreflang === 'x-default'}`)) return;
  facts.links.push({ rel, href, sizes: attribs['sizes'] ?? '', type, hreflang });
}

function onImage(facts: PageFacts, attribs: Attribs, parent: number): void {
  const src = attribs['src'];
  if (!src || facts.images.length >= MAX_LIST) return;
  facts.images.push({
    src,
    alt: attribs['alt'] ?? '',
    width: Number.parseInt(attribs['width'] ?? '', 10),
    height: Number.parseInt(attribs['height'] ?? '', 10),
    inArticle: (parent & IN_ARTICLE) !== 0,
    inContent: (parent & IN_CONTENT) !== 0,
    ariaHidden: attribs['aria-hidden'] === 'true',
  });
}

/** `cls` is a lower-cased class attribute. */
function hasClass(cls: string, name: string): boolean {
  return cls === name || ` ${cls.replace(/\s+/g, ' ')} `.includes(` ${name} `);
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Counts what is kept by name: at most `perName` of one name, and at most MAX_NAMES names. */
class Counted {
  readonly #counts = new Map<string, number>();
  readonly #perName: number;

  constructor(perName: number) {
    this.#perName = perName;
  }

  /** Whether one more of `name` is kept (and counted). */
  take(name: string): boolean {
    const count = this.#counts.get(name);
    if (count === undefined) {
      if (this.#counts.size >= MAX_NAMES) return false;
      this.#counts.set(name, 1);
      return true;
    }
    if (count >= this.#perName) return false;
    this.#counts.set(name, count + 1);
    return true;
  }
}

/** At most `room` characters of `text`, never ending inside a surrogate pair. */
function within(text: string, room: number): string {
  if (text.length <= room) return text;
  const code = text.charCodeAt(room - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? room - 1 : room);
}

function add<T>(list: T[], item: T): void {
  if (list.length < MAX_LIST) list.push(item);
}

/** The element's attributes without those longer than MAX_VALUE (left out, as if absent); the same object when none is. */
function bounded(attribs: Attribs): Attribs {
  for (const name in attribs) {
    if (attribs[name]!.length > MAX_VALUE) return Object.fromEntries(Object.entries(attribs).filter(([, value]) => value.length <= MAX_VALUE));
  }
  return attribs;
}
