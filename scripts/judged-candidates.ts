/**
 * The judging aid of tests/fixtures/judged (see its README.md): for each saved page of the shared corpora, what a
 * reader would look at to decide a field — the title tag, Open Graph and Twitter tags, headings, JSON-LD, meta
 * author/description, <html lang>, byline-like elements, <time> elements — printed side by side. It shows the
 * page, never an extractor's answer or a peer's expected value: the judge decides.
 *   node --import tsx scripts/judged-candidates.ts [peer/page ...]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { fixturesDir, loadCorpus } from '../tests/helpers/corpus.ts';

const clip = (s: string | undefined, n = 160): string => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, n);

function ldNodes(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) ldNodes(v, out);
  else if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    out.push(node);
    if (node['@graph']) ldNodes(node['@graph'], out);
  }
  return out;
}

const names = (v: unknown): string =>
  Array.isArray(v) ? v.map(names).join(' ; ') : v && typeof v === 'object' ? `${String((v as Record<string, unknown>)['name'] ?? '')}(${String((v as Record<string, unknown>)['@type'] ?? '')})` : String(v ?? '');

/** Every candidate of a page by label (full text, values joined by ' ‖ '), in print order. */
export function candidates(html: string): Map<string, string> {
  const $ = cheerio.load(html);
  const found = new Map<string, string>();
  const add = (label: string, value: string | undefined) => {
    const v = (value ?? '').replace(/\s+/g, ' ').trim();
    if (v) found.set(label, v);
  };
  const meta = (name: string) =>
    $(`meta[name="${name}" i], meta[property="${name}" i], meta[itemprop="${name}" i]`).map((_, el) => $(el).attr('content')).get().join(' ‖ ');
  add('lang', [$('html').attr('lang'), meta('og:locale'), $('meta[http-equiv="content-language" i]').attr('content')].filter(Boolean).join(' ‖ '));
  add('canon', [$('link[rel="canonical"]').attr('href'), meta('og:url')].filter(Boolean).join(' ‖ '));
  add('<title>', $('title').first().text());
  add('og:title', meta('og:title'));
  add('tw:title', meta('twitter:title'));
  $('h1').slice(0, 3).each((i, el) => add(`h1[${i}]`, $(el).text()));
  add('desc', meta('description'));
  add('og:desc', meta('og:description'));
  add('tw:desc', meta('twitter:description'));
  add('author', meta('author'));
  add('art:author', meta('article:author'));
  add('dc', [meta('dc.creator'), meta('dc.date'), meta('dcterms.date')].filter(Boolean).join(' ‖ '));
  add('site', [meta('og:site_name'), meta('application-name'), meta('twitter:site')].filter(Boolean).join(' ‖ '));
  add('pub', [meta('article:published_time'), meta('og:published_time'), meta('datePublished'), meta('date'), meta('pubdate'), meta('publish-date'), meta('parsely-pub-date'), meta('sailthru.date')].filter(Boolean).join(' ‖ '));
  add('mod', [meta('article:modified_time'), meta('og:updated_time'), meta('dateModified')].filter(Boolean).join(' ‖ '));
  add('og:image', meta('og:image') || meta('twitter:image'));
  for (const script of $('script[type="application/ld+json"]').toArray()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse($(script).text());
    } catch {
      continue;
    }
    for (const node of ldNodes(parsed)) {
      const type = names(node['@type']);
      const bits = ['headline', 'name', 'datePublished', 'dateCreated', 'uploadDate', 'dateModified', 'inLanguage']
        .filter((k) => typeof node[k] === 'string')
        .map((k) => `${k}=${clip(node[k] as string, 100)}`);
      if (node['author']) bits.push(`author=${clip(names(node['author']), 100)}`);
      if (node['publisher']) bits.push(`publisher=${clip(names(node['publisher']), 60)}`);
      if (bits.length > 0) add(`ld ${type}`, bits.join(' · '));
      for (const k of ['headline', 'datePublished', 'dateCreated', 'uploadDate', 'dateModified']) {
        if (typeof node[k] === 'string' && !found.has(`ld.${k}`)) found.set(`ld.${k}`, node[k] as string);
      }
    }
  }
  const bylines = $('[class*="byline" i], [class*="author" i], [rel="author"], [itemprop="author"]')
    .map((_, el) => clip($(el).text(), 70)).get().filter(Boolean);
  add('byline', [...new Set(bylines)].slice(0, 5).join(' ‖ '));
  const times = $('time').map((_, el) => `${$(el).attr('datetime') ?? ''} "${clip($(el).text(), 40)}"`).get();
  add('time', [...new Set(times)].slice(0, 4).join(' ‖ '));
  const dated = $('[class*="date" i], [class*="publish" i]').map((_, el) => clip($(el).text(), 50)).get().filter(Boolean);
  add('dateish', [...new Set(dated)].slice(0, 4).join(' ‖ '));
  const body = $('body').clone();
  body.find('script, style, noscript').remove();
  found.set('text', clip(body.text(), 100000));
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = new Set(process.argv.slice(2));
  for (const page of loadCorpus()) {
    const key = `${page.peer}/${page.name}`;
    if (only.size > 0 && !only.has(key)) continue;
    const found = candidates(page.html);
    const text = found.get('text') ?? '';
    const bytes = readFileSync(join(fixturesDir(), page.peer, page.name, 'input.html')).length;
    console.log(`== ${key}  ${page.url}  (${bytes} bytes, ${text.length} chars of text)`);
    for (const [label, value] of found) {
      if (label.startsWith('ld.') || label === 'text') continue;
      console.log(`  ${label}: ${clip(value, label.startsWith('ld ') ? 400 : 160)}`);
    }
    console.log(`  text: ${text.slice(0, 220)}`);
  }
}
