import { readFileSync } from 'node:fs';
import { parseDocument, Parser } from 'htmlparser2';
import { DomHandler } from 'domhandler';
import { extractMetadata } from './lib/extract/index.ts';
import { collectFacts } from './lib/extract/collect.ts';
for (const f of ['metascraper/forbes','open-graph-scraper/fastcompany','metascraper/nytimes-opinion']) {
const html = readFileSync(`/work/shared/fixtures/${f}/input.html`,'utf8');
const t = (name: string, fn: () => unknown) => { for (let i=0;i<3;i++) fn(); const s=performance.now(); for (let i=0;i<10;i++) fn(); console.log(f, name, ((performance.now()-s)/10).toFixed(1)); };
t('extract', () => extractMetadata({ html, url: 'https://x.com/' }));
t('collect', () => collectFacts(html, 'https://x.com/'));
t('parseDocument', () => parseDocument(html));
t('tokenize only', () => new Parser({}).end(html));
}
