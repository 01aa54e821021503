/**
 * trafilatura's human-annotated evaluation set (../shared/corpora/build-trafilatura.sh builds it outside the
 * repository; GLANCE_TRAFILATURA names the folder): 851 real pages in many languages whose title, author, date,
 * description and site name people judged. `null` means the annotators found none on the page; a missing key, that
 * the field was not annotated (not scored). Several authors (a list, or one string naming them): any one of them,
 * or all of them in any order and joined by any conjunction, agrees.
 *
 * The pages are split by a hash of their name into a half rules are studied on and a half only measured: a rule
 * that helps the studied half and not the other is fitted to the pages, not to how pages are written.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeHTML } from 'entities';
import { decodeHtml, scoreField, type ScoredField } from '../../tests/helpers/corpus.ts';
import { dayOf } from '../../tests/helpers/judged.ts';

export const TRAFILATURA_FIELDS = ['title', 'author', 'date', 'description', 'publisher'] as const satisfies readonly ScoredField[];
export type TrafilaturaField = (typeof TRAFILATURA_FIELDS)[number];
export type Half = 'studied' | 'measured';
export type Scoring = 'strict' | 'lenient';

export interface TrafilaturaPage {
  name: string;
  url: string;
  html: string;
  half: Half;
  expected: Partial<Record<TrafilaturaField, string | string[] | null>>;
}

export const trafilaturaDir = (): string | undefined => process.env['GLANCE_TRAFILATURA'] || undefined;

/** Stable across machines and runs: the first byte of the SHA-256 of the page's name, even or odd. */
export const halfOf = (name: string): Half => ((createHash('sha256').update(name).digest()[0]! & 1) === 0 ? 'studied' : 'measured');

export function loadTrafilatura(dir: string): TrafilaturaPage[] {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { name: string }[];
  return index.map(({ name }) => {
    const meta = JSON.parse(readFileSync(join(dir, name, 'meta.json'), 'utf8')) as { url: string; charset?: string };
    return {
      name,
      url: meta.url,
      html: decodeHtml(readFileSync(join(dir, name, 'input.html')), meta.charset),
      half: halfOf(name),
      expected: JSON.parse(readFileSync(join(dir, name, 'expected.json'), 'utf8')) as TrafilaturaPage['expected'],
    };
  });
}

/**
 * Strict: the corpora's fair comparison (entities, typographic quotes and spacing folded), a date on the annotated
 * day as the answer writes it. Lenient: letters and digits only, any case, and either value containing the other
 * ("By Jane Roe" for "Jane Roe", "Headline | Site" for "Headline"); dates as strict.
 * `undefined`: the field is not annotated on the page.
 */
export function scoreTrafilatura(
  field: TrafilaturaField,
  actual: string | null | undefined,
  expected: TrafilaturaPage['expected'],
  scoring: Scoring,
): boolean | undefined {
  if (!(field in expected)) return undefined;
  const want = expected[field] ?? null;
  const got = actual === undefined || actual === null || actual.trim() === '' ? null : actual;
  if (want === null || got === null) return want === got;
  if (field === 'date') return typeof want === 'string' && dayOf(got) === want.replace(/^(\d{4})-(\d{1,2})[-.](\d{1,2})$/, (_, y: string, m: string, d: string) => `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`);
  const wants = typeof want === 'string' ? [want] : want;
  const agrees = (value: string): boolean =>
    scoring === 'strict' ? scoreField(field, got, { [field]: value }, { url: '' }) === true : contains(got, value);
  if (wants.some(agrees)) return true;
  // The same authors, in any order, whichever words join them ("A und B" as "A and B", a list as a byline).
  const key = scoring === 'strict' ? folded : letters;
  const names = new Set(splitNames(got).map(key));
  const wanted = wants.flatMap(splitNames).map(key);
  return wanted.length > 1 && names.size === new Set(wanted).size && wanted.every((name) => names.has(name));
}

const folded = (value: string): string => decodeHTML(value).replace(/\s+/g, ' ').trim();
const letters = (value: string): string => decodeHTML(value).normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function contains(got: string, want: string): boolean {
  const a = letters(got);
  const b = letters(want);
  return a !== '' && b !== '' && (a.includes(b) || b.includes(a));
}

const splitNames = (value: string): string[] =>
  value.split(/\s*(?:[,;&、，/]|\s(?:and|und|et|y|e|i|и|en|og|och)\s)\s*/u).map((name) => name.trim()).filter((name) => name !== '');
