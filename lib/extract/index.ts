/**
 * Metadata extraction: the HTML is parsed once into page facts, then each requested field runs its ordered
 * rules (lib/extract/fields/*) and keeps the first candidate it accepts.
 */
import { collectFacts } from './collect.ts';
import type { PageFacts } from './facts.ts';
import { FIELD_SPECS } from './fields/index.ts';
import { squareLogo } from './fields/logo.ts';
import { isMediaField, META_FIELDS, type MediaField, type MetaField } from '../data/fields.ts';
import { allValues, createContext, firstValue } from './rules.ts';

export interface ExtractOptions {
  /** `meta.logo.square`: the largest square logo first. */
  readonly squareLogo?: boolean;
}

export interface Page {
  html: string;
  /** The final URL the HTML was fetched from. */
  url: string;
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
export function extractMetadata(page: Page, fields: readonly MetaField[] = META_FIELDS, options: ExtractOptions = {}): Extraction {
  return extractFromFacts(collectFacts(page.html, page.url), fields, options);
}

/** The rules of the requested fields over facts already collected (the pipeline parses once, sliced, and shares
 *  the facts between steps: lib/pipeline/parsed.ts). */
export function extractFromFacts(facts: PageFacts, fields: readonly MetaField[], options: ExtractOptions = {}): Extraction {
  const ctx = createContext(facts);
  const specs = options.squareLogo ? { ...FIELD_SPECS, logo: squareLogo } : FIELD_SPECS;
  const values = Object.fromEntries(META_FIELDS.map((f) => [f, null])) as Record<MetaField, string | null>;
  const candidates: Record<MediaField, string[]> = { image: [], logo: [], audio: [], video: [] };
  for (const field of fields) {
    if (isMediaField(field)) {
      const { found, guessed } = allValues(specs[field], ctx);
      candidates[field] = [...found, ...guessed];
      values[field] = found[0] ?? null;
    } else {
      values[field] = firstValue(specs[field], ctx);
    }
  }
  return { values, candidates };
}
