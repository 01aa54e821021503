/**
 * Part: adblock's effect on screenshot latency. The same ad-heavy page (ad and tracker scripts on blocked hosts
 * that answer slowly, as ad servers do, plus an ad iframe and a consent banner) captured with `adblock=true` and
 * `adblock=false`, and a page without ads both ways (the interception's own overhead). Every host resolves to the
 * local server. Also the one-time cost of building the engine.
 *   ./node_modules/.bin/node --import tsx bench/adblock.ts [--smoke]
 */
import './lib/env.ts';
import { adblocker } from '../lib/browser/adblock.ts';
import { WorkPool } from '../lib/work/pool.ts';
import type { Resolver } from '../lib/guard/lookup.ts';
import { startService, q } from '../tests/helpers/service.ts';
import { startServer, html } from '../tests/helpers/server.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, ms, percentile } from './lib/stats.ts';

/** How long each ad server takes to answer: a few hundred ms is ordinary for an auction round trip. */
const AD_DELAY_MS = 400;
const AD_HOSTS = ['securepubads.g.doubleclick.net', 'pagead2.googlesyndication.com', 'ib.adnxs.com', 'static.criteo.net', 'www.google-analytics.com', 'connect.facebook.net'];
const everythingHere: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

const adPage = (port: number) => `<!doctype html><html><head><title>News</title>
${AD_HOSTS.map((host, i) => `<script src="http://${host}:${port}/ad.js?${i}"></script>`).join('\n')}
<style>body{font:16px sans-serif;margin:0} .cc-window{position:fixed;bottom:0;left:0;right:0;background:#000;color:#fff;padding:2em}</style></head>
<body><h1>Headline</h1><p>${'Story text. '.repeat(200)}</p>
<iframe src="http://${AD_HOSTS[0]}:${port}/frame.html" width="300" height="250"></iframe>
<img src="http://${AD_HOSTS[4]}:${port}/collect.gif" width="1" height="1" alt="">
<div class="cc-window cc-banner cc-type-opt-in" aria-describedby="cookieconsent:desc" role="dialog"><span id="cookieconsent:desc">Cookies</span></div>
</body></html>`;

const plainPage = `<!doctype html><html><head><title>Plain</title></head><body><h1>No ads</h1><p>${'Story text. '.repeat(200)}</p></body></html>`;

const slow = (type: string, body: string) => async (_req: unknown, res: import('node:http').ServerResponse) => {
  await new Promise((resolve) => setTimeout(resolve, AD_DELAY_MS));
  res.writeHead(200, { 'content-type': type }).end(body);
};

export const adblock: Part = async ({ smoke, log }) => {
  const runs = smoke ? 1 : 12;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  // Built as the service builds it: in a worker, then loaded here (process CPU counts the worker's too).
  const work = new WorkPool({ size: 1 });
  await adblocker({ lists: [], engine: undefined }, work);
  await work.close();
  const buildMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  // CPU time as well: on a shared machine the wall time of a single-threaded parse mostly measures the neighbours.
  const buildCpuMs = (cpu.user + cpu.system) / 1000;
  const buildRssMiB = process.memoryUsage().rss / 2 ** 20;
  log(`engine built in ${Math.round(buildMs)} ms (${Math.round(buildCpuMs)} ms of CPU)`);

  const site = await startServer({
    '/plain': html(plainPage),
    '/ad.js': slow('text/javascript', 'document.write("<div style=\\"height:90px;background:#fc0\\">AD</div>")'),
    '/frame.html': slow('text/html', '<body style="background:#f0f">AD</body>'),
    '/collect.gif': slow('image/gif', ''),
  });
  site.route('/news', html(adPage(site.port)));
  const service = await startService({ resolver: everythingHere });
  const latency = async (path: string, adblockOn: boolean) => {
    const samples: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const t = performance.now();
      const { status, body } = await service.json(q(`${site.url}${path}`, `screenshot&meta=false&force&adblock=${adblockOn}`));
      if (status !== 200) throw new Error(JSON.stringify(body));
      if (i > 0) samples.push(performance.now() - t); // the first run warms the browser
    }
    return samples;
  };
  const cases = [
    ['ad-heavy page', '/news', true],
    ['ad-heavy page', '/news', false],
    ['page without ads', '/plain', true],
    ['page without ads', '/plain', false],
  ] as const;
  const results: Array<{ name: string; on: boolean; samples: number[] }> = [];
  for (const [name, path, on] of cases) {
    log(`${name}, adblock=${on}`);
    results.push({ name, on, samples: await latency(path, on) });
  }
  await service.close();
  await site.close();

  const med = (name: string, on: boolean) => median(results.find((r) => r.name === name && r.on === on)!.samples);
  const adOn = med('ad-heavy page', true);
  const adOff = med('ad-heavy page', false);
  const plainOn = med('page without ads', true);
  const plainOff = med('page without ads', false);
  return {
    metrics: { buildMs, buildCpuMs, buildRssMiB, adOn, adOff, plainOn, plainOff },
    tables: [
      {
        title: `Screenshot latency through the local service (${runs} runs each, after one warm-up)`,
        header: ['page', 'adblock', 'median', 'p90'],
        rows: results.map((r) => [r.name, String(r.on), ms(median(r.samples)), ms(percentile(r.samples, 90))]),
      },
    ],
    targets: [
      { name: 'adblock lowers latency on an ad-heavy page', goal: 'adblock=true < adblock=false', measured: `${ms(adOn)} vs ${ms(adOff)}`, met: adOn < adOff },
    ],
    notes: [
      `Engine build, once per process: ${ms(buildMs)}, ${ms(buildCpuMs)} of CPU, process RSS after it ${buildRssMiB.toFixed(0)} MiB (reading and parsing the packaged lists; the first adblocked capture overlaps it with the browser launch).`,
      `Ad servers answer after ${AD_DELAY_MS} ms; every host name resolves to the local server, through the guarded proxy.`,
      `Overhead on a page without ads (request interception): ${ms(plainOn - plainOff)} at the median.`,
    ],
  };
};

await runIfMain('adblock', import.meta.url, adblock);
