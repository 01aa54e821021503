/**
 * Custom data rules on the shared corpus pages: what a 10-rule request adds to extracting the default fields
 * (the DOM comes from the same parse, lib/rules/dom.ts), and whole-page Markdown of the ~1 MB pages.
 *   npm run bench:rules
 */
import { loadCorpus } from '../tests/helpers/corpus.ts';
import { META_FIELDS } from '../lib/data/fields.ts';
import { collectFacts } from '../lib/extract/collect.ts';
import { extractFromFacts, extractMetadata } from '../lib/extract/index.ts';
import { parseQuery } from '../lib/query/index.ts';
import { buildDocument, DocumentBuilder, runRules } from '../lib/rules/index.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, ms, round } from './lib/stats.ts';

const TEN_RULES = [
  'data.heading.selector=h1&data.heading.attr=text',
  'data.links.selectorAll=a&data.links.attr=href&data.links.type=url',
  'data.images.selectorAll=img&data.images.attr=src&data.images.type=url',
  'data.canonical.selector=link[rel=canonical]&data.canonical.attr=href&data.canonical.type=url',
  'data.ogtitle.selector=meta[property="og:title"]&data.ogtitle.attr=content&data.ogtitle.type=title',
  'data.published.0.selector=time[datetime]&data.published.0.attr=datetime&data.published.0.type=date&data.published.1.selector=meta[property="article:published_time"]&data.published.1.attr=content&data.published.1.type=date',
  'data.lang.attr=lang&data.lang.type=lang',
  'data.para.selector=article p, main p, p&data.para.attr=text',
  'data.emails.selectorAll=a[href^="mailto:"]&data.emails.attr=href&data.emails.type=email',
  'data.heads.selectorAll=h2, h3&data.heads.attr.text.attr=text&data.heads.attr.id.attr=id',
].join('&');

const noPing = { media: async (_type: string, url: string) => ({ url }) };

export const rules: Part = async ({ smoke, log }) => {
  const pages = loadCorpus();
  const chosen = smoke ? pages.slice(0, 5) : pages;
  const runs = smoke ? 3 : 15;
  const tenRules = parseQuery(`url=https://x.test/&${TEN_RULES}`).data!;
  const markdownRule = parseQuery('url=https://x.test/&data.content.attr=markdown').data!;

  let extractTotal = 0;
  let withDomTotal = 0;
  let withRulesTotal = 0;
  const withDom = (page: (typeof pages)[number]): DocumentBuilder => {
    const builder = new DocumentBuilder();
    extractFromFacts(collectFacts(page.html, page.url, (collector) => builder.beside(collector)), META_FIELDS);
    return builder;
  };
  for (const page of chosen) {
    const extractOnly: number[] = [];
    const domOnly: number[] = [];
    const withRules: number[] = [];
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      extractMetadata({ html: page.html, url: page.url });
      extractOnly.push(performance.now() - started);
      started = performance.now();
      withDom(page);
      domOnly.push(performance.now() - started);
      started = performance.now();
      await runRules(tenRules, { document: withDom(page).document, url: page.url }, noPing);
      withRules.push(performance.now() - started);
    }
    extractTotal += median(extractOnly);
    withDomTotal += median(domOnly);
    withRulesTotal += median(withRules);
  }
  const overhead = withRulesTotal / extractTotal - 1;
  const domOverhead = withDomTotal / extractTotal - 1;
  log(`10 rules: +${(overhead * 100).toFixed(1)} % over ${chosen.length} pages (the DOM alone: +${(domOverhead * 100).toFixed(1)} %)`);

  const large = pages.filter((page) => page.html.length >= 900_000).slice(0, smoke ? 1 : 5);
  const markdownRows: string[][] = [];
  let worst = 0;
  for (const page of large) {
    const samples: number[] = [];
    let length = 0;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const values = await runRules(markdownRule, { document: buildDocument(page.html), url: page.url }, noPing);
      samples.push(performance.now() - started);
      length = String(values.content ?? '').length;
    }
    worst = Math.max(worst, median(samples));
    markdownRows.push([`${page.peer}/${page.name}`, `${round(page.html.length / 1e6, 2)} MB`, ms(median(samples)), String(length)]);
  }

  return {
    metrics: {
      pages: chosen.length,
      extractMs: round(extractTotal),
      withDomMs: round(withDomTotal),
      withRulesMs: round(withRulesTotal),
      overheadPercent: round(overhead * 100),
      domOverheadPercent: round(domOverhead * 100),
      markdownWorstMs: round(worst),
    },
    tables: [
      {
        title: `Default fields alone vs default fields + 10 rules (one shared parse), summed medians over ${chosen.length} corpus pages, ${runs} runs each`,
        header: ['case', 'total'],
        rows: [
          ['default fields', ms(extractTotal)],
          ['default fields + the rules\' DOM, no rule run', `${ms(withDomTotal)} (${domOverhead >= 0 ? '+' : ''}${(domOverhead * 100).toFixed(1)} %)`],
          ['default fields + 10 rules', ms(withRulesTotal)],
          ['added', `${(overhead * 100).toFixed(1)} %`],
        ],
      },
      { title: 'Whole-page Markdown (data.content.attr=markdown), DOM built + main content + mdream', header: ['page', 'size', 'median', 'Markdown chars'], rows: markdownRows },
    ],
    targets: [
      { name: '10-rule request', goal: '≤ 20 % over the default fields', measured: `${(overhead * 100).toFixed(1)} %`, met: overhead <= 0.2 },
      { name: 'whole-page Markdown, ~1 MB page', goal: '< 100 ms', measured: ms(worst), met: worst < 100 },
    ],
    notes: ['Pings are left out (a no-op media check): they are network time, measured by the ping part.'],
  };
};

await runIfMain('rules', import.meta.url, rules);
