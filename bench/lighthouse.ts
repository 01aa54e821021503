/**
 * Part: `insights.lighthouse`, the time per report. A local page of ordinary weight (a stylesheet, a script, four
 * images, a few kB of text) audited through the service with every category: the first report of a process (the
 * package's import and the browser's launch included) and warm reports after it, their sizes as JSON and HTML, and
 * how long the event loop is held while a report runs (Lighthouse audits on the main thread).
 *   ./node_modules/.bin/node --import tsx bench/lighthouse.ts [--smoke]
 */
import './lib/env.ts';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LIGHTHOUSE_MS } from '../lib/pipeline/steps/lighthouse.ts';
import { html, startServer } from '../tests/helpers/server.ts';
import * as make from '../tests/ping/fixtures.ts';
import { serve } from '../tests/ping/helpers.ts';
import { q, startService } from '../tests/helpers/service.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, ms, percentile, round } from './lib/stats.ts';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An article</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="A page of ordinary weight.">
<link rel="stylesheet" href="/style.css"><script src="/app.js" defer></script></head>
<body><header><h1>An article</h1></header><main>
${[1, 2, 3, 4].map((i) => `<p>${'Paragraph text of an ordinary article. '.repeat(30)}</p><img src="/photo-${i}.png" width="600" height="400" alt="Photo ${i}">`).join('\n')}
</main></body></html>`;

export const lighthouse: Part = async ({ smoke, log }) => {
  const runs = smoke ? 1 : 5;
  const photo = make.png(1200, 800);
  const site = await startServer({
    '/': html(PAGE),
    '/style.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end(`body{font:18px/1.5 serif;max-width:40em;margin:auto}${'.c{color:#333}'.repeat(200)}`),
    '/app.js': (_req, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end(`document.body.dataset.ready = '1';${'void 0;'.repeat(2000)}`),
  });
  for (const i of [1, 2, 3, 4]) site.route(`/photo-${i}.png`, serve(photo, { contentType: 'image/png' }));
  // Smoke: Lighthouse's worker and its browser prepared first, as the local service does at start-up, so the first
  // report's import and launch do not race its budget on a loaded machine (a smoke reads no time; the full run does).
  const service = await startService({ prepared: smoke });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  // A smoke's reports run one category's audits: every step of the code, without the performance trace's work.
  const only = smoke ? '&insights.lighthouse.onlyCategories=seo' : '';

  const report = async (output: 'json' | 'html') => {
    const started = performance.now();
    const response = await service.request(q(`${site.url}/`, `meta=false&insights.technologies=false&insights.lighthouse.output=${output}${only}&force`));
    const text = await response.text();
    if (response.status !== 200) throw new Error(text.slice(0, 500));
    const { data } = JSON.parse(text) as { data: { insights: { lighthouse: unknown } } };
    const body = data.insights.lighthouse;
    return { ms: performance.now() - started, bytes: Buffer.byteLength(typeof body === 'string' ? body : JSON.stringify(body)) };
  };

  try {
    const first = await report('json');
    log(`first report (${smoke ? 'service prepared' : 'import + launch included'}): ${ms(first.ms)}`);
    const warm: number[] = [];
    let jsonBytes = first.bytes;
    loop.enable();
    for (let i = 0; i < runs; i++) {
      const run = await report('json');
      warm.push(run.ms);
      jsonBytes = run.bytes;
    }
    loop.disable();
    const htmlRun = await report('html');
    const maxLoopMs = loop.max / 1e6;
    const [med, p95] = [median(warm), percentile(warm, 95)];
    log(`warm: median ${ms(med)}, p95 ${ms(p95)}; event loop held at most ${ms(maxLoopMs)}`);
    return {
      metrics: {
        firstMs: round(first.ms),
        medianMs: round(med),
        p95Ms: round(p95),
        htmlMs: round(htmlRun.ms),
        jsonBytes,
        htmlBytes: htmlRun.bytes,
        maxLoopDelayMs: round(maxLoopMs),
      },
      tables: [
        {
          title: `Lighthouse report of a local page, ${smoke ? 'the SEO category' : 'all categories'}, default device (${runs} warm runs)`,
          header: [`first report (${smoke ? 'service prepared' : 'import + launch'})`, 'warm median', 'warm p95', 'html report', 'JSON size', 'HTML size', 'longest event-loop stall'],
          rows: [[ms(first.ms), ms(med), ms(p95), ms(htmlRun.ms), `${round(jsonBytes / 1e3)} kB`, `${round(htmlRun.bytes / 1e3)} kB`, ms(maxLoopMs)]],
        },
      ],
      targets: [
        { name: 'a report within its cap (warm p95)', goal: `< ${LIGHTHOUSE_MS / 1000} s`, measured: ms(p95), met: p95 < LIGHTHOUSE_MS },
        { name: 'the first report of a process', goal: `< ${LIGHTHOUSE_MS / 1000} s`, measured: ms(first.ms), met: first.ms < LIGHTHOUSE_MS },
      ],
      notes: [
        'Simulated throttling (Lighthouse\'s default): the page loads at full speed and the metrics are modelled, so the time is mostly Lighthouse\'s own waits (quiet network and CPU after load), its CPU benchmark and the audits.',
        'The event-loop stall is the longest single delay of a 10 ms timer while warm reports ran: other requests on the same process wait that long at worst.',
      ],
    };
  } finally {
    await service.close();
    await site.close();
  }
};

await runIfMain('lighthouse', import.meta.url, lighthouse);
