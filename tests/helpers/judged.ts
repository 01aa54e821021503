/**
 * The judged set (tests/fixtures/judged, see its README.md): the peer corpora's real pages with the values a
 * reader gives them, each with its reason — instead of a peer's own output. Scored with the corpus's fair
 * comparison (tests/helpers/corpus.ts) plus two rules a reader applies to dates: a judged day (`2024-02-03`)
 * agrees with any time on that calendar day as the answer writes it, and fractions of a second do not count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { SCORED_FIELDS, loadCorpus, scoreField, type CorpusPage, type PageResult, type ScoredField } from './corpus.ts';

/** One judged field: the value, other values equally right (a second headline the page gives, a short brand), and why. */
export interface JudgedValue {
  value: string | null;
  oneOf?: (string | null)[];
  reason: string;
}

export interface JudgedEntry {
  /** The page's address, as the corpus's meta.json has it: a guard against judging a page that changed. */
  url: string;
  /** The page's language as read by the judge (ISO 639-1). */
  language: string;
  /** What kind of page it is: news, blog, shop, podcast, social… */
  type: string;
  note?: string;
  fields: Partial<Record<ScoredField, JudgedValue>>;
}

export interface JudgedPage extends Pick<CorpusPage, 'peer' | 'name' | 'url' | 'html'> {
  language: string;
  type: string;
  fields: Partial<Record<ScoredField, JudgedValue>>;
}

const JUDGED_DIR = new URL('../fixtures/judged/', import.meta.url);

/** The judged entries as saved, by `<peer>/<page>`. */
export function readJudged(): Map<string, JudgedEntry> {
  const entries = new Map<string, JudgedEntry>();
  for (const file of readdirSync(JUDGED_DIR).filter((f) => f.endsWith('.json')).sort()) {
    const peer = file.slice(0, -'.json'.length);
    const pages = JSON.parse(readFileSync(new URL(file, JUDGED_DIR), 'utf8')) as Record<string, JudgedEntry>;
    for (const [name, entry] of Object.entries(pages)) entries.set(`${peer}/${name}`, entry);
  }
  return entries;
}

/** Every judged page with its HTML from the shared corpora, in corpus order; given a part of the corpus (the
 *  benchmark's smoke run), the judged pages among it. */
export function loadJudged(part?: readonly CorpusPage[]): JudgedPage[] {
  const corpus = part ?? loadCorpus();
  const judged = readJudged();
  const pages: JudgedPage[] = [];
  for (const page of corpus) {
    const key = `${page.peer}/${page.name}`;
    const entry = judged.get(key);
    if (!entry) continue;
    if (entry.url !== page.url) throw new Error(`judged set: ${key} was judged at ${entry.url}, the corpus now has ${page.url}`);
    judged.delete(key);
    pages.push({ peer: page.peer, name: page.name, url: page.url, html: page.html, language: entry.language, type: entry.type, fields: entry.fields });
  }
  if (!part && judged.size > 0) throw new Error(`judged set: no corpus page for ${[...judged.keys()].join(', ')}`);
  return pages;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** True when `actual` is one of the judged values. */
export function scoreJudgedField(field: ScoredField, actual: string | null | undefined, judged: JudgedValue, pageUrl: string): boolean {
  const got = actual === undefined || actual === '' ? null : actual;
  return [judged.value, ...(judged.oneOf ?? [])].some((want) => {
    if (field === 'date' && want !== null && got !== null) {
      return DAY.test(want) ? dayOf(got) === want : scoreField('date', wholeSeconds(got), { date: wholeSeconds(want) }, { url: pageUrl }) === true;
    }
    return scoreField(field, got, { [field]: want }, { url: pageUrl }) === true;
  });
}

/** Per field: `null` where the judge recorded nothing (the field is not scored on that page). */
export function scoreJudged(page: JudgedPage, values: Partial<Record<ScoredField, string | null | undefined>>): PageResult {
  const scores: PageResult['scores'] = {};
  for (const field of SCORED_FIELDS) {
    const judged = page.fields[field];
    scores[field] = judged ? scoreJudgedField(field, values[field], judged, page.url) : null;
  }
  return { peer: page.peer, name: page.name, scores };
}

function wholeSeconds(value: string): string {
  return value.trim().replace(/(\d{2}:\d{2}:\d{2})[.,]\d+/, '$1');
}

/** The calendar day an answer names: as written when it starts with one (an offset keeps the reader's day),
 *  otherwise the UTC day of the instant it parses to. */
export function dayOf(value: string): string | undefined {
  const written = /^(\d{4}-\d{2}-\d{2})(?:[T ]|$)/.exec(value.trim())?.[1];
  if (written) return written;
  for (const candidate of [`${value} UTC`, value]) {
    const ms = Date.parse(candidate);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString().slice(0, 10);
  }
  return undefined;
}
