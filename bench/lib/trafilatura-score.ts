/**
 * Every extractor's answers on the trafilatura set, scored strict and lenient, summarised per half: what
 * bench/accuracy.ts reports beside the shared corpora.
 */
import { summarise, type PageResult, type Summary } from '../../tests/helpers/corpus.ts';
import type { Extractor, Values } from './extractors.ts';
import { TRAFILATURA_FIELDS, scoreTrafilatura, type Half, type Scoring, type TrafilaturaPage } from './trafilatura.ts';

export const SCORINGS: readonly Scoring[] = ['strict', 'lenient'];

export interface TrafilaturaRun {
  pages: readonly TrafilaturaPage[];
  /** Per extractor name, its answer for each page, in page order. */
  values: ReadonlyMap<string, readonly Values[]>;
}

export async function runTrafilatura(pages: readonly TrafilaturaPage[], extractors: readonly Extractor[], log: (m: string) => void): Promise<TrafilaturaRun> {
  const values = new Map<string, Values[]>();
  for (const extractor of extractors) {
    log(`${extractor.name}: ${pages.length} trafilatura pages`);
    const found: Values[] = [];
    for (const page of pages) found.push(await extractor.extract(page));
    values.set(extractor.name, found);
  }
  return { pages, values };
}

export function scoreRun(run: TrafilaturaRun, extractor: string, scoring: Scoring): PageResult[] {
  const answers = run.values.get(extractor)!;
  return run.pages.map((page, index) => {
    const scores: PageResult['scores'] = {};
    for (const field of TRAFILATURA_FIELDS) scores[field] = scoreTrafilatura(field, answers[index]![field], page.expected, scoring) ?? null;
    return { peer: 'trafilatura', name: page.name, scores };
  });
}

/** `<extractor> <scoring>` → its summary over the pages of `half` (both halves when undefined). */
export function summariesOf(run: TrafilaturaRun, half: Half | undefined): Record<string, Summary> {
  const inHalf = new Set(run.pages.filter((page) => half === undefined || page.half === half).map((page) => page.name));
  const out: Record<string, Summary> = {};
  for (const scoring of SCORINGS) {
    for (const name of run.values.keys()) out[`${name} ${scoring}`] = summarise(scoreRun(run, name, scoring).filter((r) => inHalf.has(r.name)));
  }
  return out;
}
