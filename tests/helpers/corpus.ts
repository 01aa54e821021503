/**
 * The peer fixture corpora (/work/shared/fixtures, see its README.md) and the scoring that is fair to every
 * extractor: Glance's, metascraper's and open-graph-scraper's outputs are all scored by `scoreField` the same way.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { decodeHTML } from 'entities';

export const SCORED_FIELDS = [
  'title', 'description', 'lang', 'author', 'publisher', 'date', 'url', 'image', 'logo', 'audio', 'video',
] as const;
export type ScoredField = (typeof SCORED_FIELDS)[number];

/** A field's extra acceptance test, as written by the corpus in `meta.json` → `checks.<field>`. */
export interface FieldCheck {
  oneOf?: string[];
  type?: string;
  includes?: string;
  startsWith?: string;
  nullOrIncludes?: string;
  lowercaseEquals?: string;
  anyHttpUrl?: boolean;
}

export interface CorpusMeta {
  name: string;
  peer: string;
  url: string;
  charset?: string;
  checks?: Partial<Record<string, FieldCheck>>;
  /** Fields whose expected value needed the network upstream: never scored. */
  caveats?: Partial<Record<string, string>>;
  [key: string]: unknown;
}

export interface CorpusPage {
  name: string;
  peer: string;
  url: string;
  html: string;
  /** The peer's expected values, except where peer-mistakes.json records a judged value instead. */
  expected: Partial<Record<ScoredField, string | null>>;
  meta: CorpusMeta;
}

/**
 * Where a peer's expected value is the peer's own mistake (it is the peer's output, not a person's judgement),
 * the value a reader would give, with the reason: `"<peer>/<page>": { "<field>": { value, peer, reason } }`.
 * Every extractor, the peers included, is scored against the judged value.
 */
interface Judged {
  value: string | null;
  /** The peer's expected value it replaces: a judgement goes stale if the corpus changes under it. */
  peer: string | null;
  reason: string;
}

const PEER_MISTAKES = JSON.parse(
  readFileSync(new URL('../extract/peer-mistakes.json', import.meta.url), 'utf8'),
) as Record<string, Partial<Record<ScoredField, Judged>>>;

function judged(peer: string, name: string, expected: CorpusPage['expected']): CorpusPage['expected'] {
  const fixes = PEER_MISTAKES[`${peer}/${name}`] ?? {};
  const out = { ...expected };
  for (const [field, fix] of Object.entries(fixes) as [ScoredField, Judged][]) {
    if ((expected[field] ?? null) !== fix.peer) throw new Error(`peer-mistakes.json: ${peer}/${name} ${field} no longer matches the corpus`);
    out[field] = fix.value;
  }
  return out;
}

const URL_FIELDS = new Set<string>(['url', 'image', 'logo', 'audio', 'video']);

export function fixturesDir(): string {
  const fromEnv = process.env['GLANCE_FIXTURES'];
  if (fromEnv) return fromEnv;
  return fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
}

/** Every page of every peer corpus, sorted by peer then name. */
export function loadCorpus(dir: string = fixturesDir()): CorpusPage[] {
  const pages: CorpusPage[] = [];
  for (const peer of readdirSync(dir, { withFileTypes: true })) {
    if (!peer.isDirectory()) continue;
    const peerDir = join(dir, peer.name);
    for (const entry of readdirSync(peerDir, { withFileTypes: true })) {
      const pageDir = join(peerDir, entry.name);
      if (!entry.isDirectory() || !existsSync(join(pageDir, 'expected.json'))) continue;
      const meta = JSON.parse(readFileSync(join(pageDir, 'meta.json'), 'utf8')) as CorpusMeta;
      pages.push({
        name: entry.name,
        peer: peer.name,
        url: meta.url,
        html: decodeHtml(readFileSync(join(pageDir, 'input.html')), meta.charset),
        expected: judged(peer.name, entry.name, JSON.parse(readFileSync(join(pageDir, 'expected.json'), 'utf8')) as CorpusPage['expected']),
        meta,
      });
    }
  }
  return pages.sort((a, b) => a.peer.localeCompare(b.peer) || a.name.localeCompare(b.name));
}

/** Valid UTF-8 is taken as UTF-8 whatever the page declares (saved copies were often re-encoded); otherwise the
 *  declared charset (meta.json, then `<meta charset>`) decides. */
export function decodeHtml(bytes: Buffer, declared: string | undefined): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const head = bytes.subarray(0, 4096).toString('latin1');
    const sniffed = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
    for (const label of [declared, sniffed]) {
      if (!label) continue;
      try {
        return new TextDecoder(label).decode(bytes);
      } catch {
        // an unknown label: try the next one
      }
    }
    return bytes.toString('latin1');
  }
}

/** `null`: not scored (caveat, or the corpus does not assert the field). */
export function scoreField(
  field: ScoredField,
  actual: string | null | undefined,
  expected: CorpusPage['expected'],
  meta: Pick<CorpusMeta, 'url' | 'checks' | 'caveats'>,
): boolean | null {
  if (meta.caveats?.[field] !== undefined) return null;
  if (!(field in expected)) return null;
  const want = expected[field] ?? null;
  const got = actual === undefined || actual === null || actual === '' ? null : actual;
  const check = meta.checks?.[field];
  if (same(field, got, want, meta.url)) return true;
  return check ? passesCheck(field, got, check, meta.url) : false;
}

function same(field: ScoredField, got: string | null, want: string | null, pageUrl: string): boolean {
  if (want === null || got === null) return want === got;
  if (URL_FIELDS.has(field)) return urlKey(got, pageUrl) === urlKey(want, pageUrl);
  if (field === 'date') {
    const a = toInstant(got);
    const b = toInstant(want);
    if (a !== undefined && b !== undefined) return a === b;
  }
  if (field === 'lang') return primarySubtag(got) === primarySubtag(want);
  return text(got) === text(want);
}

function passesCheck(field: ScoredField, got: string | null, check: FieldCheck, pageUrl: string): boolean {
  if (check.nullOrIncludes !== undefined) return got === null || text(got).includes(check.nullOrIncludes);
  if (got === null) return false;
  if (check.oneOf) return check.oneOf.some((value) => same(field, got, value, pageUrl));
  if (check.type === 'string') return true;
  if (check.includes !== undefined) return text(got).includes(check.includes);
  if (check.startsWith !== undefined) return urlKey(got, pageUrl).startsWith(urlKey(check.startsWith, pageUrl));
  if (check.lowercaseEquals !== undefined) return text(got).toLowerCase() === check.lowercaseEquals.toLowerCase();
  if (check.anyHttpUrl) return /^https?:$/.test(URL.parse(got, pageUrl)?.protocol ?? '');
  return false;
}

/**
 * Entities decoded on both sides (twice, for the `&amp;amp;` that upstream meta content often carries) and
 * typographic quotes and ellipses folded to ASCII: metascraper "smartens" quotes and turns a trailing `...` into
 * `…` in every string it returns, which is presentation, not a different value.
 */
function text(value: string): string {
  let decoded = value;
  for (let i = 0; i < 2 && decoded.includes('&'); i++) decoded = decodeHTML(decoded);
  return decoded
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/\s*\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim();
}

function urlKey(value: string, pageUrl: string): string {
  const raw = text(value);
  const href = URL.parse(raw, pageUrl)?.href ?? raw;
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}

function primarySubtag(value: string): string {
  return text(value).toLowerCase().split(/[-_]/)[0] ?? '';
}

const ZONE = /(?:Z|[+-]\d{2}:?\d{2}|\b(?:UTC|GMT|[ECMP][SD]T)\b)\s*$/i;

/** Milliseconds since the epoch; a value without a zone is read as UTC so the process time zone cannot matter. */
function toInstant(value: string): number | undefined {
  const raw = text(value).replace(/\bEtc\/(GMT|UTC)\b/i, '$1');
  if (/^\d{10}$/.test(raw)) return Number(raw) * 1000;
  if (/^\d{13}$/.test(raw)) return Number(raw);
  const isoLocal = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(raw);
  const zoned = ZONE.test(raw) || /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const candidate = isoLocal ? `${raw.replace(' ', 'T')}Z` : zoned ? raw : `${raw} UTC`;
  const ms = Date.parse(candidate);
  return Number.isNaN(ms) ? undefined : ms;
}

export interface PageResult {
  peer: string;
  name: string;
  /** Per field: true agrees, false disagrees, null not scored. */
  scores: Partial<Record<ScoredField, boolean | null>>;
}

export interface FieldSummary {
  agreed: number;
  scored: number;
  ratio: number;
}

export interface Summary {
  fields: Record<ScoredField, FieldSummary>;
  overall: FieldSummary;
}

export function scorePage(
  page: CorpusPage,
  values: Partial<Record<ScoredField, string | null | undefined>>,
): PageResult {
  const scores: PageResult['scores'] = {};
  for (const field of SCORED_FIELDS) scores[field] = scoreField(field, values[field], page.expected, page.meta);
  return { peer: page.peer, name: page.name, scores };
}

export function summarise(results: readonly PageResult[]): Summary {
  const tally = (agreed: number, scored: number): FieldSummary => ({
    agreed,
    scored,
    ratio: scored === 0 ? 1 : agreed / scored,
  });
  const fields = {} as Record<ScoredField, FieldSummary>;
  let agreedAll = 0;
  let scoredAll = 0;
  for (const field of SCORED_FIELDS) {
    let agreed = 0;
    let scored = 0;
    for (const result of results) {
      const score = result.scores[field];
      if (score === null || score === undefined) continue;
      scored++;
      if (score) agreed++;
    }
    fields[field] = tally(agreed, scored);
    agreedAll += agreed;
    scoredAll += scored;
  }
  return { fields, overall: tally(agreedAll, scoredAll) };
}

/** A fixed-width table of summaries side by side (one column per label), for test output and RESULTS.md. */
export function formatTable(columns: Record<string, Summary>, fields: readonly ScoredField[] = SCORED_FIELDS): string {
  const labels = Object.keys(columns);
  const rows = [['field', ...labels]];
  const cell = (s: FieldSummary) => `${(s.ratio * 100).toFixed(1)}% (${s.agreed}/${s.scored})`;
  for (const field of fields) rows.push([field, ...labels.map((l) => cell(columns[l]!.fields[field]))]);
  rows.push(['overall', ...labels.map((l) => cell(columns[l]!.overall))]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}
