/**
 * Metadata extraction: the HTML is parsed once into page facts, then each requested field runs its ordered
 * rules (lib/extract/fields/*) and keeps the first candidate it accepts.
 */
import { collectFacts, readFacts, type AlsoHandler } from './collect.ts';
import type { PageFacts } from './facts.ts';
import type { FeedOptions } from './parse.ts';
import { FIELD_SPECS } from './fields/index.ts';
import { isMediaField, META_FIELDS, type MediaField, type MetaField } from '../data/fields.ts';
import { allValues, createContext, firstValue } from './rules.ts';

export interface Page {
  html: string;
  /** The final URL the HTML was fetched from. */
  url: string;
  /** Wraps the facts collector's parser handler, to hand the same parse to another handler too. */
  parse?: AlsoHandler;
}

export interface Extraction {
  /** Media fields hold the absolute URL of the best candidate. */
  values: Record<MetaField, string | null>;
  /** Every distinct candidate URL for each media field, best first (ping walks these when the first is
   *  unreachable: for logo — declared icons by preference, apple-touch-icon, then /favicon.ico last).
   *  The list may end with a guess the page never stated (the origin's /favicon.ico), which `values` leaves out:
   *  it is only worth reporting once a ping has found it there. */
  candidates: Record<MediaField, string[]>;
}

/** Parses once and runs the rules of the requested fields only. Never throws on bad HTML. */
export function extractMetadata(page: Page, fields: readonly MetaField[] = META_FIELDS): Extraction {
  return extractFrom(collectFacts(page.html, page.url, page.parse), fields);
}

/** The same, parsing in slices that yield to the event loop; rejects only when `signal` aborts it. */
export async function extractMetadataAsync(
  page: Page, fields: readonly MetaField[] = META_FIELDS, options: FeedOptions = {},
): Promise<Extraction> {
  return extractFrom(await readFacts(page.html, page.url, options, page.parse), fields);
}

function extractFrom(facts: PageFacts, fields: readonly MetaField[]): Extraction {
  const ctx = createContext(facts);
  const values = Object.fromEntries(META_FIELDS.map((f) => [f, null])) as Record<MetaField, string | null>;
  const candidates: Record<MediaField, string[]> = { image: [], logo: [], audio: [], video: [] };
  for (const field of fields) {
    if (isMediaField(field)) {
      const { found, guessed } = allValues(FIELD_SPECS[field], ctx);
      candidates[field] = [...found, ...guessed];
      values[field] = found[0] ?? null;
    } else {
      values[field] = firstValue(FIELD_SPECS[field], ctx);
    }
  }
  return { values, candidates };
}
