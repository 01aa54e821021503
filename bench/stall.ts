/**
 * Part 14 (issue 24): no request holds the process. For each hostile input — pages and rules whose CPU cost grows
 * faster than their size, the first use of what loads slowly, and the earlier denial-of-service shapes — a fresh local
 * service (`npm start`, as a child process) answers the hostile request while a victim process (bench/lib/victim.mjs)
 * polls `/health` every 10 ms and asks for a tiny page's metadata every 200 ms. Reported: the hostile answer and its time against its
 * `timeout`, and the victims' worst latencies. With `--base <dir>` the same runs go against another checkout (a
 * worktree of an earlier commit, this checkout's node_modules linked in), case by case beside this one.
 *   ./node_modules/.bin/node --import tsx bench/stall.ts [--base <dir>] [--only <case>,…] [--smoke]
 */
import './lib/env.ts';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { html, startServer, type Route } from '../tests/helpers/server.ts';
import { deepJson, legacyPage, manyAttributes, nestedDivs, nestedText, ordinaryPage, siblings, unclosedLinks } from './lib/hostile.ts';
import { runIfMain, type Part, type Table, type Target } from './lib/part.ts';
import { ms, round } from './lib/stats.ts';
import { startTreeService, type TreeService } from './lib/tree-service.ts';
import { sharedAdblockEngine } from '../tests/helpers/adblock-engine.ts';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const MB = 1024 * 1024;
/** The targets: a victim's worst latency, and how late past its `timeout` a hostile request may answer. */
const VICTIM_GOAL_MS = 50;
const LATE_GOAL_MS = 250;
/** How long past its `timeout` a hostile request is waited for before its service is given up on. */
const GIVE_UP_MS = 20_000;

interface Case {
  readonly name: string;
  readonly path: string;
  readonly query: string;
  readonly timeoutMs: number;
  /** A benign request of the same feature first, so that loading its modules is not what is measured. */
  readonly warm?: { path: string; query: string };
  /** The first use of a feature in the process is the point: no warm-up. */
  readonly firstUse?: boolean;
}

/** As many rules as fit the query's 200 parameters beside `url` and `timeout`. */
const rules99 = Array.from({ length: 99 }, (_, i) => `data.r${i}.selectorAll=div&data.r${i}.attr=text`).join('&');

const CASES: readonly Case[] = [
  { name: 'first adblocked screenshot', path: '/plain', query: 'screenshot=true', timeoutMs: 15_000, firstUse: true },
  { name: 'first Lighthouse report', path: '/plain', query: 'insights.lighthouse=true&insights.technologies=false', timeoutMs: 25_000, firstUse: true },
  { name: '300 000 nested divs', path: '/deep', query: '', timeoutMs: 5000 },
  { name: "40 000 unclosed '<script '", path: '/scripts', query: '', timeoutMs: 5000 },
  { name: '50 000 attributes, outerHTML', path: '/attrs', query: 'data.x.selector=div&data.x.attr=outerHTML', timeoutMs: 5000, warm: { path: '/tiny', query: 'data.x.selector=title' } },
  { name: 'p:has(~ span), 20 000 siblings', path: '/siblings', query: `data.x.selector=${encodeURIComponent('p:has(~ span)')}`, timeoutMs: 5000, warm: { path: '/tiny', query: 'data.x.selector=title' } },
  { name: 'p:nth-last-child(1000000), 20 000 siblings', path: '/siblings', query: `data.x.selector=${encodeURIComponent('p:nth-last-child(1000000)')}`, timeoutMs: 5000, warm: { path: '/tiny', query: 'data.x.selector=title' } },
  { name: 'selectorAll=div, Markdown, 2 MB nested', path: '/nested', query: 'data.x.selectorAll=div&data.x.attr=markdown', timeoutMs: 5000, warm: { path: '/tiny', query: 'data.x.attr=markdown' } },
  { name: 'selectorAll=div, Markdown, 10 MB nested (the body limit)', path: '/nested10', query: 'data.x.selectorAll=div&data.x.attr=markdown', timeoutMs: 10_000, warm: { path: '/tiny', query: 'data.x.attr=markdown' } },
  { name: 'selectorAll=div, text, 2 MB nested', path: '/nested', query: 'data.x.selectorAll=div&data.x.attr=text', timeoutMs: 5000, warm: { path: '/tiny', query: 'data.x.attr=text' } },
  { name: '99 rules, selectorAll=div text, 2 MB nested', path: '/nested', query: rules99, timeoutMs: 5000, warm: { path: '/tiny', query: 'data.x.attr=text' } },
  { name: 'technologies, 6 MB page', path: '/ordinary6', query: 'insights.technologies=true&insights.lighthouse=false', timeoutMs: 5000, warm: { path: '/tiny', query: 'insights.technologies=true&insights.lighthouse=false' } },
  { name: 'technologies + three rules, 10 MB page (the body limit)', path: '/ordinary10', query: 'insights.technologies&insights.lighthouse=false&data.a.selectorAll=a&data.a.attr=href&data.t.attr=text&data.m.attr=markdown', timeoutMs: 10_000, warm: { path: '/tiny', query: 'insights.technologies&insights.lighthouse=false&data.t.attr=text' } },
  { name: "technologies, 2 MB of unclosed '<link href=\"'", path: '/links', query: 'insights.technologies=true&insights.lighthouse=false', timeoutMs: 5000, warm: { path: '/tiny', query: 'insights.technologies=true&insights.lighthouse=false' } },
  { name: 'palette of a 1 × 39 000 000 PNG', path: '/tall', query: 'palette=true', timeoutMs: 5000, warm: { path: '/small', query: 'palette=true' } },
  { name: 'JSON nested 100 000 deep (JSON-LD, attr=json)', path: '/deepjson', query: 'data.j.selector=pre&data.j.attr=json', timeoutMs: 5000, warm: { path: '/tiny', query: 'data.x.attr=json' } },
  { name: 'long runs in metadata (ReDoS shapes)', path: '/redos', query: '', timeoutMs: 5000 },
  { name: 'a shell whose body is 10 MB of tags (prerender=auto checks it)', path: '/tags', query: '', timeoutMs: 10_000 },
  { name: 'an undeclared windows-1251 page (its encoding guessed)', path: '/legacy', query: '', timeoutMs: 5000 },
  { name: '10 MB of byline and date lines (the body limit)', path: '/lines10', query: '', timeoutMs: 10_000 },
  { name: 'screenshot of 16 frames of undeclared windows-1251 documents', path: '/legacy-frames', query: 'screenshot=true', timeoutMs: 15_000, warm: { path: '/plain', query: 'screenshot=true' } },
  { name: 'technologies + three rules, 10 MB page beyond Latin-1', path: '/wide10', query: 'insights.technologies&insights.lighthouse=false&data.a.selectorAll=a&data.a.attr=href&data.t.attr=text&data.m.attr=markdown', timeoutMs: 10_000, warm: { path: '/tiny', query: 'insights.technologies&insights.lighthouse=false&data.t.attr=text' } },
];

/** The pages the cases need, each made when first asked for (the 39-megapixel PNG takes seconds to encode). */
function routes(): Record<string, Route> {
  const made = new Map<string, Promise<string | Buffer>>();
  const once = (key: string, make: () => Promise<string | Buffer> | string | Buffer) => {
    let body = made.get(key);
    if (!body) made.set(key, (body = Promise.resolve(make())));
    return body;
  };
  const page = (make: () => string): Route => async (req, res) => html(String(await once(req.url ?? '', make)))(req, res);
  const png = (width: number, height: number): Route => async (req, res) => {
    const body = await once(req.url ?? '', async () => {
      const sharp = await (await import('../lib/media/sharp.ts')).loadSharp();
      return sharp({ create: { width, height, channels: 3, background: '#336699' } }).png({ compressionLevel: 9 }).toBuffer();
    });
    res.writeHead(200, { 'content-type': 'image/png' }).end(body);
  };
  // Undeclared (no charset anywhere) and not UTF-8: chardet's statistics choose its encoding, over its first 64 KB.
  const legacy: Route = async (req, res) => {
    const body = await once(req.url ?? '', () => legacyPage(64 * 1024));
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  };
  const withImage = (src: string) => html(`<!doctype html><html><head><title>Image</title><meta property="og:image" content="${src}"></head><body>x</body></html>`);
  const text = `<p>${'Visible words in a server-rendered page. '.repeat(8)}</p>`;
  return {
    '/tiny': html('<title>tiny</title><h1>tiny</h1>'),
    '/legacy': legacy,
    '/legacy-frames': html(`<title>Frames</title>${Array.from({ length: 16 }, (_, i) => `<iframe src="/legacy?frame=${i}"></iframe>`).join('')}`),
    '/plain': html(`<!doctype html><html><head><title>Plain</title></head><body><h1>Plain</h1>${text}</body></html>`),
    '/deep': page(() => nestedDivs(300_000)),
    '/scripts': page(() => `<title>scripts</title><body>${text}${'<script '.repeat(40_000)}</body>`),
    '/attrs': page(() => manyAttributes(50_000)),
    '/siblings': page(() => siblings(20_000)),
    '/nested': page(() => nestedText(2 * MB)),
    '/nested10': page(() => nestedText(9.8 * MB)),
    '/ordinary10': page(() => ordinaryPage(9.8 * MB)),
    '/ordinary6': page(() => ordinaryPage(6 * MB)),
    // One character past Latin-1 makes every string of the page two bytes a character: twice the memory to copy.
    '/wide10': page(() => ordinaryPage(9.8 * MB).replace('<title>Ordinary', '<title>Ordinary — ✓')),
    '/tags': page(() => `<!doctype html><html><head><script src="/app.js"></script></head><body>${'<i>'.repeat(3_200_000)}</body></html>`),
    '/links': page(() => unclosedLinks(2 * MB)),
    // Every line starts with a byline's label or a date (lib/extract/byline-label.ts), each tested as it is read.
    '/lines10': page(() => `<title>Lines</title><main>${'<p>von Anna Berg</p><p>Bonn, 11.10.2021 und mehr</p>'.repeat(Math.round((9 * MB) / 52))}</main>`),
    '/tall': withImage('/tall.png'),
    '/tall.png': png(1, 39_000_000),
    '/small': withImage('/small.png'),
    '/small.png': png(64, 64),
    '/deepjson': page(() => `<title>JSON</title><script type="application/ld+json">${deepJson(100_000)}</script><pre>${deepJson(100_000)}</pre>`),
    '/redos': page(
      () =>
        `<title>${'a '.repeat(100_000)}b</title><meta name="description" content="${' '.repeat(200_000)}x">` +
        `<meta name="author" content="${'By '.repeat(50_000)}"><time datetime="${'2024-'.repeat(40_000)}">x</time>` +
        `<h1>${'&amp;'.repeat(50_000)}</h1><a rel="author" href="/${'a/'.repeat(100_000)}">x</a>`,
    ),
  };
}

interface Outcome {
  status: number;
  code: string | undefined;
  answerMs: number;
  healthWorstMs: number;
  tinyWorstMs: number;
  gaveUp: boolean;
}

const VICTIM = fileURLToPath(new URL('./lib/victim.mjs', import.meta.url));

/** The victim process (bench/lib/victim.mjs): asking at once, recording from `start()` until `stop()`, which answers
 *  the worst latencies it recorded. */
async function victim(service: string, tinyQuery: string): Promise<{ start(): void; stop(): Promise<{ health: number; tiny: number }> }> {
  const child = fork(VICTIM, [service, tinyQuery], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await once(child, 'message');
  // Its first requests (new connections, code compiled for the first time) are behind it before it records.
  await sleep(500);
  return {
    start: () => child.send('start'),
    async stop() {
      const worst = once(child, 'message') as Promise<[{ health: number; tiny: number }]>;
      child.send('stop');
      return (await worst)[0];
    },
  };
}

/** What a case's page links to that the service will fetch too (the palette's image). */
const LINKED: Readonly<Record<string, string>> = { '/tall': '/tall.png', '/small': '/small.png' };

async function runCase(service: TreeService, site: string, hostile: Case): Promise<Outcome> {
  // The bench's own server makes a page (or image) on its first request: made now, not on the hostile request's clock.
  for (const path of [hostile.path, LINKED[hostile.path], hostile.warm?.path, hostile.warm && LINKED[hostile.warm.path]]) {
    if (path) await fetch(`${site}${path}`).then((response) => response.arrayBuffer());
  }
  const ask = (path: string, query: string, timeoutMs: number) =>
    `url=${encodeURIComponent(`${site}${path}`)}&timeout=${timeoutMs}ms${query ? `&${query}` : ''}`;
  if (hostile.warm) await fetch(`${service.url}/?${ask(hostile.warm.path, hostile.warm.query, 20_000)}`).then((r) => r.arrayBuffer());
  const victims = await victim(service.url, ask('/tiny', '', 5000));
  victims.start();
  await sleep(100);
  const started = performance.now();
  const giveUp = AbortSignal.timeout(hostile.timeoutMs + GIVE_UP_MS);
  let status = 0;
  let code: string | undefined;
  let gaveUp = false;
  try {
    const response = await fetch(`${service.url}/?${ask(hostile.path, hostile.query, hostile.timeoutMs)}`, { signal: giveUp });
    status = response.status;
    // The code alone: a large answer is not parsed.
    code = /^\{"status":"(?:fail|error)","code":"(\w+)"/.exec(await response.text())?.[1];
  } catch {
    gaveUp = true;
  }
  const answerMs = performance.now() - started;
  await sleep(100);
  const { health, tiny } = await victims.stop();
  return { status, code, answerMs, healthWorstMs: health, tinyWorstMs: tiny, gaveUp };
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export const stall: Part = async ({ smoke, log }) => {
  const base = argument('--base');
  const only = argument('--only')?.split(',');
  // Smoke: one case whose service needs no browser.
  const picked = only ?? (smoke ? ['nth-last-child'] : undefined);
  const cases = CASES.filter((c) => !picked || picked.some((name) => c.name.includes(name)));
  const site = await startServer(routes());
  const trees: [string, string][] = [['this checkout', HERE], ...(base ? [['base', base] as [string, string]] : [])];
  const metrics: Record<string, number> = {};
  const rows: string[][] = [];
  const targets: Target[] = [];
  try {
    for (const hostile of cases) {
      for (const [label, tree] of trees) {
        // Smoke: the adblock engine prebuilt (tests/helpers/adblock-engine.ts, once per version), not by each service as it starts (the full run measures that start).
        const service = await startTreeService(tree, smoke ? { GLANCE_ADBLOCK_ENGINE: await sharedAdblockEngine() } : {});
        try {
          const outcome = await runCase(service, site.url, hostile);
          const late = outcome.answerMs - hostile.timeoutMs;
          log(`${label}: ${hostile.name}: ${outcome.status} ${outcome.code ?? ''} in ${ms(outcome.answerMs)}; /health worst ${ms(outcome.healthWorstMs)}, tiny worst ${ms(outcome.tinyWorstMs)}`);
          const key = `${label === 'base' ? 'base' : 'this'}.${hostile.name}`;
          metrics[`${key}.answerMs`] = round(outcome.answerMs);
          metrics[`${key}.healthWorstMs`] = round(outcome.healthWorstMs);
          metrics[`${key}.tinyWorstMs`] = round(outcome.tinyWorstMs);
          rows.push([
            hostile.name,
            label,
            outcome.gaveUp ? `none (given up after ${ms(outcome.answerMs)})` : `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`,
            outcome.gaveUp ? `> ${ms(outcome.answerMs)}` : ms(outcome.answerMs),
            ms(hostile.timeoutMs),
            ms(outcome.healthWorstMs),
            ms(outcome.tinyWorstMs),
          ]);
          if (label !== 'base') {
            targets.push({
              name: `${hostile.name}: victim`,
              goal: `/health worst < ${VICTIM_GOAL_MS} ms`,
              measured: `${ms(outcome.healthWorstMs)} (tiny page ${ms(outcome.tinyWorstMs)})`,
              met: outcome.healthWorstMs < VICTIM_GOAL_MS,
            });
            targets.push({
              name: `${hostile.name}: answered`,
              goal: `within timeout + ${LATE_GOAL_MS} ms`,
              measured: `${ms(outcome.answerMs)} of ${ms(hostile.timeoutMs)} (${outcome.status}${outcome.code ? ` ${outcome.code}` : ''})`,
              met: !outcome.gaveUp && late <= LATE_GOAL_MS,
            });
          }
        } finally {
          await service.close();
        }
      }
    }
  } finally {
    await site.close();
  }
  const table: Table = {
    title: 'Hostile requests through a fresh local service, each beside /health every 10 ms and a tiny page every 200 ms',
    header: ['hostile request', 'code', 'answer', 'answered in', 'timeout', '/health worst', 'tiny page worst'],
    rows,
  };
  return {
    metrics,
    tables: [table],
    targets,
    notes: [
      'Each case runs in a fresh service (`node --import tsx functions/local.ts`, its answers cached on disk as by default); a benign request of the same feature goes first unless the first use is the case.',
      `A hostile request still unanswered ${GIVE_UP_MS / 1000} s after its timeout is given up on, and its service killed.`,
    ],
  };
};

await runIfMain('stall', import.meta.url, stall);
