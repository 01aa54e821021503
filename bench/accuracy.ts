/**
 * Part 1: metadata accuracy of Glance's extractor, metascraper (Microlink's rule set) and open-graph-scraper, all
 * offline on the saved HTML of the peer corpora (/work/shared/fixtures), scored two ways in the same run:
 * - against the corpora's expected values (mostly the peers' own outputs), by the fair comparison of
 *   tests/extract/corpus.test.ts (tests/helpers/corpus.ts);
 * - against the judged set (tests/fixtures/judged): the same pages with the values a reader gives them
 *   (tests/helpers/judged.ts, as tests/extract/judged.test.ts scores it).
 * - with GLANCE_TRAFILATURA=<folder> (../shared/corpora/build-trafilatura.sh), on trafilatura's human-annotated set
 *   (bench/lib/trafilatura.ts), strict and lenient, its studied half, its measured half and the whole.
 *   GLANCE_TRAFILATURA=/work/corpora/trafilatura ./node_modules/.bin/node --import tsx bench/accuracy.ts [--smoke]
 */
import {
  SCORED_FIELDS, loadCorpus, scorePage, summarise, type FieldSummary, type PageResult, type ScoredField, type Summary,
} from '../tests/helpers/corpus.ts';
import { loadJudged, scoreJudged } from '../tests/helpers/judged.ts';
import { glance, metascraperFull, openGraphScraper, type Extractor, type Values } from './lib/extractors.ts';
import { runIfMain, type Part, type Table, type Target } from './lib/part.ts';
import { loadTrafilatura, trafilaturaDir, TRAFILATURA_FIELDS, type Half } from './lib/trafilatura.ts';
import { runTrafilatura, scoreRun, summariesOf, SCORINGS, type TrafilaturaRun } from './lib/trafilatura-score.ts';
import { loadDateParsers } from '../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const EXTRACTORS: Extractor[] = [glance, metascraperFull, openGraphScraper];
/** Smoke: a few pages of each corpus. */
const SMOKE_PAGES_PER_PEER = 3;

const cell = (s: FieldSummary): string => `${(s.ratio * 100).toFixed(1)}% (${s.agreed}/${s.scored})`;

function table(title: string, columns: Record<string, Summary>, fields: readonly ScoredField[] = SCORED_FIELDS): Table {
  const names = Object.keys(columns);
  const rows = fields.map((field) => [field, ...names.map((name) => cell(columns[name]!.fields[field]))]);
  rows.push(['**overall**', ...names.map((name) => `**${cell(columns[name]!.overall)}**`)]);
  return { title, header: ['field', ...names], rows };
}

export const accuracy: Part = async ({ smoke, log }) => {
  let pages = loadCorpus();
  if (smoke) {
    const peers = [...new Set(pages.map((page) => page.peer))];
    pages = peers.flatMap((peer) => pages.filter((page) => page.peer === peer).slice(0, SMOKE_PAGES_PER_PEER));
  }
  const peers = [...new Set(pages.map((page) => page.peer))];
  const results = new Map<string, PageResult[]>();
  const values = new Map<string, Values[]>();
  for (const extractor of EXTRACTORS) {
    log(`${extractor.name}: ${pages.length} pages`);
    const found: Values[] = [];
    for (const page of pages) found.push(await extractor.extract(page));
    values.set(extractor.name, found);
    results.set(extractor.name, pages.map((page, index) => scorePage(page, found[index]!)));
  }

  const summaries = (filter: (r: PageResult) => boolean): Record<string, Summary> =>
    Object.fromEntries(EXTRACTORS.map((e) => [e.name, summarise(results.get(e.name)!.filter(filter))]));
  const all = summaries(() => true);

  // The judged set is the same HTML: each extractor's answers above are scored again, against the judge's values.
  const judgedPages = loadJudged(pages);
  const indexOf = new Map(pages.map((page, index) => [`${page.peer}/${page.name}`, index]));
  const judgedResults = new Map(EXTRACTORS.map((e) => [
    e.name,
    judgedPages.map((page) => scoreJudged(page, values.get(e.name)![indexOf.get(`${page.peer}/${page.name}`)!]!)),
  ]));
  const judgedSummaries = (filter: (index: number) => boolean): Record<string, Summary> =>
    Object.fromEntries(EXTRACTORS.map((e) => [e.name, summarise(judgedResults.get(e.name)!.filter((_, i) => filter(i)))]));
  const judged = judgedSummaries(() => true);
  const judgedFields = SCORED_FIELDS.filter((field) => judged[glance.name]!.fields[field].scored > 0);
  const english = judgedPages.filter((page) => page.language === 'en').length;
  // Where metascraper agrees and Glance does not: the cases to read when a field is behind.
  const losses: string[][] = [];
  pages.forEach((page, index) => {
    for (const field of SCORED_FIELDS) {
      if (results.get(glance.name)![index]!.scores[field] === false && results.get(metascraperFull.name)![index]!.scores[field] === true) {
        const show = (v: string | null | undefined) => (v === null || v === undefined ? 'null' : `\`${v.slice(0, 80)}\``);
        losses.push([`${page.peer}/${page.name}`, field, show(page.expected[field]), show(values.get(glance.name)![index]![field]), show(values.get(metascraperFull.name)![index]![field])]);
      }
    }
  });
  const judgedLosses: string[][] = [];
  judgedPages.forEach((page, index) => {
    const at = indexOf.get(`${page.peer}/${page.name}`)!;
    for (const field of judgedFields) {
      if (judgedResults.get(glance.name)![index]!.scores[field] === false && judgedResults.get(metascraperFull.name)![index]!.scores[field] === true) {
        const show = (v: string | null | undefined) => (v === null || v === undefined ? 'null' : `\`${v.slice(0, 80)}\``);
        judgedLosses.push([`${page.peer}/${page.name}`, field, show(page.fields[field]!.value), show(values.get(glance.name)![at]![field]), show(values.get(metascraperFull.name)![at]![field])]);
      }
    }
  });
  const tables: Table[] = [
    table(`All ${pages.length} pages (${peers.map((p) => `${pages.filter((x) => x.peer === p).length} ${p}`).join(' + ')})`, all),
    ...peers.map((peer) => table(`${peer} corpus only (expected values = ${peer}'s own output)`, summaries((r) => r.peer === peer))),
    table(`Judged set: ${judgedPages.length} of these pages, expected values judged by a reader (tests/fixtures/judged)`, judged, judgedFields),
    table(`Judged set, ${english} pages in English`, judgedSummaries((i) => judgedPages[i]!.language === 'en'), judgedFields),
    table(`Judged set, ${judgedPages.length - english} pages in other languages`, judgedSummaries((i) => judgedPages[i]!.language !== 'en'), judgedFields),
    {
      title: `Judged set: pages where metascraper agrees with the judge and Glance does not (${judgedLosses.length})`,
      header: ['page', 'field', 'judged', 'glance', 'metascraper'],
      rows: judgedLosses.length > 0 ? judgedLosses : [['(none)', '', '', '', '']],
    },
    {
      title: `Pages where metascraper agrees and Glance does not (${losses.length})`,
      header: ['page', 'field', 'expected', 'glance', 'metascraper'],
      rows: losses.length > 0 ? losses : [['(none)', '', '', '', '']],
    },
  ];

  const metrics: Record<string, number> = { pages: pages.length };
  for (const e of EXTRACTORS) {
    metrics[`${e.name}.overall`] = all[e.name]!.overall.ratio;
    for (const field of SCORED_FIELDS) metrics[`${e.name}.${field}`] = all[e.name]!.fields[field].ratio;
    metrics[`judged.${e.name}.overall`] = judged[e.name]!.overall.ratio;
    for (const field of judgedFields) metrics[`judged.${e.name}.${field}`] = judged[e.name]!.fields[field].ratio;
  }
  metrics['judged.pages'] = judgedPages.length;

  const targets: Target[] = [
    ...beside(all, SCORED_FIELDS, { name: 'accuracy', fields: 'field' }),
    ...beside(judged, judgedFields, { name: 'judged set: accuracy', fields: 'judged field' }),
  ];
  const notes = [
    'metascraper: metascraper-author, -date, -description, -audio, -video, -image, -lang, -logo, -logo-favicon, -manifest, ' +
      '-publisher, -title, -url, -readability in that order (the fixtures\' `rules_used_upstream` for 81 of 91 pages; ' +
      'metascraper-x, used by 2 caveated x.com pages, left out).',
    'Offline stubs (bench/lib/extractors.ts): logo-favicon takes declared icons as reachable and its /favicon.ico, Google s2 ' +
      'and root-domain guesses are off; manifest\'s got refuses every request (data: manifests still read); audio/video ' +
      'iframe and twitter:player pages are empty documents.',
    'open-graph-scraper runs on the saved HTML with its `html` option; mapping: title ← ogTitle ?? twitterTitle, description ← ' +
      'ogDescription ?? twitterDescription, image ← ogImage[0].url ?? twitterImage[0].url, logo ← favicon ?? ogLogo, ' +
      'publisher ← ogSiteName, url ← ogUrl, date ← ogDate ?? articlePublishedTime ?? ogArticlePublishedTime, lang ← ogLocale, ' +
      'author ← author ?? articleAuthor ?? ogArticleAuthor, audio ← ogAudioSecureURL ?? ogAudioURL ?? ogAudio, video ← ogVideo[0].url.',
    'Glance: extractMetadata on the same HTML and URL (no ping: a logo is the best declared one, never a guessed /favicon.ico).',
    'Judged set: the answers above, scored against tests/fixtures/judged (judging rules in its README.md): any of a field\'s ' +
      'judged values agrees; a judged day agrees with any time on that day as the answer writes it; times agree to the second. ' +
      'The judge is this project and the pages are the corpora\'s, mostly English: not a held-out set.',
  ];
  const dir = trafilaturaDir();
  if (dir) {
    const all = loadTrafilatura(dir);
    const run = await runTrafilatura(smoke ? all.slice(0, SMOKE_PAGES_PER_PEER * 2) : all, EXTRACTORS, log);
    const report = trafilaturaReport(run);
    tables.push(...report.tables);
    targets.push(...report.targets);
    Object.assign(metrics, report.metrics);
    notes.push(
      `trafilatura set (${dir}): pages split by the first byte of the SHA-256 of their name (even: studied, odd: measured); ` +
        'rules were changed only after reading failures of the studied half. Strict: the corpora\'s comparison, a date on ' +
        'the annotated day; lenient: letters and digits only, any case, either value containing the other. A list of ' +
        'authors agrees with any one of them or all of them. `null`: the annotators found none, and only none agrees.',
    );
  }
  return { metrics, tables, targets, notes };
};

const HALVES: readonly [string, Half | undefined][] = [['measured half', 'measured'], ['studied half', 'studied'], ['whole set', undefined]];

/** The trafilatura set's tables, its targets on the measured half (every field ≥ the best peer, author above
 *  metascraper, overall strict above 70 %), and the studied half's losses to read. */
function trafilaturaReport(run: TrafilaturaRun): { tables: Table[]; targets: Target[]; metrics: Record<string, number> } {
  const tables: Table[] = [];
  const metrics: Record<string, number> = {};
  for (const [label, half] of HALVES) {
    const summaries = summariesOf(run, half);
    const count = run.pages.filter((page) => half === undefined || page.half === half).length;
    tables.push(table(`trafilatura set, ${label}: ${count} pages, values judged by people`, summaries, TRAFILATURA_FIELDS));
    for (const [column, summary] of Object.entries(summaries)) {
      const key = `trafilatura.${half ?? 'whole'}.${column.replace(' ', '.')}`;
      metrics[`${key}.overall`] = summary.overall.ratio;
      for (const field of TRAFILATURA_FIELDS) metrics[`${key}.${field}`] = summary.fields[field].ratio;
    }
  }
  const measured = summariesOf(run, 'measured');
  const peers = EXTRACTORS.filter((e) => e !== glance).map((e) => e.name);
  const targets: Target[] = SCORINGS.map((scoring) => {
    const ours = measured[`${glance.name} ${scoring}`]!;
    const behind = TRAFILATURA_FIELDS.filter((field) => peers.some((peer) => measured[`${peer} ${scoring}`]!.fields[field].agreed > ours.fields[field].agreed));
    return {
      name: `trafilatura measured half, ${scoring}, per field`,
      goal: '≥ the best peer on every field',
      measured: behind.length === 0 ? 'every field ≥ the best peer' : `behind on ${behind.join(', ')}`,
      met: behind.length === 0,
    };
  });
  const ours = measured[`${glance.name} strict`]!;
  const theirs = measured[`${metascraperFull.name} strict`]!;
  targets.push(
    {
      name: 'trafilatura measured half, strict author',
      goal: '> metascraper',
      measured: `${cell(ours.fields.author)} vs ${cell(theirs.fields.author)}`,
      met: ours.fields.author.agreed > theirs.fields.author.agreed,
    },
    { name: 'trafilatura measured half, strict overall', goal: '> 70 %', measured: cell(ours.overall), met: ours.overall.ratio > 0.7 },
  );
  tables.push(studiedLosses(run));
  return { tables, targets, metrics };
}

/** Studied half only: where a peer agrees (strict) and Glance does not, with both answers. */
function studiedLosses(run: TrafilaturaRun): Table {
  const results = new Map(EXTRACTORS.map((e) => [e.name, scoreRun(run, e.name, 'strict')]));
  const show = (v: string | string[] | null | undefined) =>
    v === null || v === undefined ? 'null' : `\`${(typeof v === 'string' ? v : v.join('; ')).replace(/[|`\s]+/g, ' ').slice(0, 80)}\``;
  const rows: string[][] = [];
  run.pages.forEach((page, index) => {
    if (page.half !== 'studied') return;
    for (const field of TRAFILATURA_FIELDS) {
      if (results.get(glance.name)![index]!.scores[field] !== false) continue;
      const peer = EXTRACTORS.find((e) => e !== glance && results.get(e.name)![index]!.scores[field] === true);
      if (!peer) continue;
      rows.push([page.name, field, show(page.expected[field]), show(run.values.get(glance.name)![index]![field]), `${peer.name}: ${show(run.values.get(peer.name)![index]![field])}`]);
    }
  });
  return {
    title: `trafilatura set, studied half: pages where a peer agrees (strict) and Glance does not (${rows.length})`,
    header: ['page', 'field', 'annotated', 'glance', 'peer'],
    rows: rows.length > 0 ? rows : [['(none)', '', '', '', '']],
  };
}

/** Glance against metascraper on one scoring: every field at least as good, and more right answers overall. */
function beside(summaries: Record<string, Summary>, fields: readonly ScoredField[], label: { name: string; fields: string }): Target[] {
  const ours = summaries[glance.name]!;
  const theirs = summaries[metascraperFull.name]!;
  const behind = fields.filter((field) => ours.fields[field].agreed < theirs.fields[field].agreed);
  return [
    {
      name: `${label.name} per field`,
      goal: `≥ metascraper on every ${label.fields}`,
      measured: behind.length === 0
        ? `every ${label.fields} ≥ metascraper`
        : `behind on ${behind.map((f) => `${f} (${ours.fields[f].agreed} vs ${theirs.fields[f].agreed})`).join(', ')}`,
      met: behind.length === 0,
    },
    {
      name: `${label.name} overall`,
      goal: '> metascraper',
      measured: `${cell(ours.overall)} vs ${cell(theirs.overall)}`,
      met: ours.overall.agreed > theirs.overall.agreed,
    },
  ];
}

await runIfMain('accuracy', import.meta.url, accuracy);
