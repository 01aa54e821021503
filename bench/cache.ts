/**
 * Part 6: cache hits. Requests/s and p99 latency of the local service answering one cached request (HIT) over
 * and over, beside a bare node:http server answering the same bytes and headers (the ceiling). Each server runs
 * in a process of its own, one at a time; autocannon drives it from this process over loopback.
 *   ./node_modules/.bin/node --import tsx bench/cache.ts [--smoke]
 */
import './lib/env.ts';
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './lib/bundle.ts';
import type { Captured } from './lib/cache-server.ts';
import { runIfMain, type Part } from './lib/part.ts';
import { median, ms, percentile, times } from './lib/stats.ts';

const MIN_SHARE = 0.5;
const CONNECTIONS = 10;
const SERVER = join(ROOT, 'bench', 'lib', 'cache-server.ts');

interface Running {
  child: ChildProcess;
  info: { url: string } & Partial<Captured>;
}

async function startChild(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`cache-server ${args[0]} exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) as Running['info'] };
}

async function stop({ child }: Running): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Load {
  rps: number;
  p99: number;
  p50: number;
  requests: number;
}

async function load(url: string, seconds: number): Promise<Load> {
  // autocannon's own latency histogram keeps whole milliseconds; its per-response event has the fraction.
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, pipelining: 1, duration: seconds }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => void latencies.push(responseTime));
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`load on ${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  }
  return { rps: result.requests.average, p99: percentile(latencies, 99), p50: percentile(latencies, 50), requests: result.requests.total };
}

export const cache: Part = async ({ smoke, log }) => {
  const seconds = smoke ? 1 : 10;
  const rounds = smoke ? 1 : 3;
  const scratch = mkdtempSync(join(tmpdir(), 'glance-cache-bench-'));
  const glance = await startChild(['glance']);
  const capturedFile = join(scratch, 'hit.json');
  writeFileSync(capturedFile, JSON.stringify(glance.info));
  const ceiling = await startChild(['ceiling', capturedFile]);
  const results: Record<'glance' | 'ceiling', Load[]> = { glance: [], ceiling: [] };
  try {
    if (!smoke) {
      await load(glance.info.url, 2);
      await load(ceiling.info.url, 2);
    }
    // Alternating rounds, so drift lands on both alike.
    for (let round = 0; round < rounds; round++) {
      results.glance.push(await load(glance.info.url, seconds));
      results.ceiling.push(await load(ceiling.info.url, seconds));
      log(`round ${round + 1}: Glance ${results.glance.at(-1)!.rps.toFixed(0)} req/s, node:http ${results.ceiling.at(-1)!.rps.toFixed(0)} req/s`);
    }
    const check = await fetch(glance.info.url);
    await check.arrayBuffer();
    if (check.headers.get('x-cache-status') !== 'HIT') throw new Error('the measured answers were not cache hits');
  } finally {
    await stop(glance);
    await stop(ceiling);
    rmSync(scratch, { recursive: true, force: true });
  }

  const pick = (side: 'glance' | 'ceiling', key: keyof Load) => median(results[side].map((r) => r[key]));
  const share = pick('glance', 'rps') / pick('ceiling', 'rps');
  const bytes = Buffer.from(glance.info.body ?? '', 'base64').length;
  return {
    metrics: {
      'glance.rps': pick('glance', 'rps'),
      'glance.p99Ms': pick('glance', 'p99'),
      'ceiling.rps': pick('ceiling', 'rps'),
      'ceiling.p99Ms': pick('ceiling', 'p99'),
      share,
      bodyBytes: bytes,
    },
    tables: [
      {
        title: `One cached answer (${bytes} bytes of JSON) requested over and over: ${CONNECTIONS} connections, ${seconds} s × ${rounds} rounds each (medians)`,
        header: ['server', 'requests/s', 'p50', 'p99', 'share of the ceiling'],
        rows: [
          ['Glance local service (x-cache-status: HIT)', pick('glance', 'rps').toFixed(0), ms(pick('glance', 'p50')), ms(pick('glance', 'p99')), `**${(share * 100).toFixed(1)}%**`],
          ['node:http, same bytes and headers (ceiling)', pick('ceiling', 'rps').toFixed(0), ms(pick('ceiling', 'p50')), ms(pick('ceiling', 'p99')), '100%'],
        ],
      },
    ],
    targets: [
      {
        name: 'cache hits',
        goal: `≥ ${MIN_SHARE * 100}% of the node:http ceiling`,
        measured: `${(share * 100).toFixed(1)}% (${pick('glance', 'rps').toFixed(0)} vs ${pick('ceiling', 'rps').toFixed(0)} req/s; p99 ${times(pick('glance', 'p99') / pick('ceiling', 'p99'))} the ceiling's)`,
        met: share >= MIN_SHARE,
      },
    ],
    notes: [
      'Each server is a child process (bench/lib/cache-server.ts) on 127.0.0.1; autocannon runs in the parent, so on 2 cores the server ' +
        'and the load generator each have one. The ceiling replays the HIT\'s exact body and headers. The local cache is a folder ' +
        '(GLANCE_CACHE_DIR); in Lambda it is S3.',
    ],
  };
};

await runIfMain('cache', import.meta.url, cache);
