/**
 * Every benchmark part, each in a fresh process, one after another; then a summary of the targets.
 *   npm run bench                       (or: ./node_modules/.bin/node --import tsx bench/run.ts)
 *   npm run bench -- ping cache         only those parts
 *   BENCH_SMOKE=1 npm run bench         tiny counts, a few seconds a part (what tests/bench/smoke.test.ts runs)
 * Writes results.json, report.md and each part's JSON to BENCH_OUT (default bench/out, not committed; RESULTS.md is
 * written by hand from a real run).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/bundle.ts';
import { isSmoke, renderPart, renderTable, type PartResult } from './lib/part.ts';

export const PARTS = ['accuracy', 'throughput', 'coldstart', 'screenshot', 'ping', 'cache', 'soak', 'parse', 'rules', 'insights', 'adblock', 'palette', 'lighthouse', 'stall', 'work'] as const;

const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const unknown = chosen.filter((name) => !(PARTS as readonly string[]).includes(name));
if (unknown.length > 0) throw new Error(`unknown part(s) ${unknown.join(', ')}; parts are ${PARTS.join(', ')}`);
const parts = chosen.length > 0 ? chosen : [...PARTS];
const smoke = isSmoke();
const out = process.env['BENCH_OUT'] || join(ROOT, 'bench', 'out');
mkdirSync(out, { recursive: true });

function runPart(name: string): Promise<PartResult> {
  const json = join(out, `${name}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', `${name}.ts`)], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, BENCH_JSON: json, ...(smoke ? { BENCH_SMOKE: '1' } : {}) },
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/${name}.ts exited with ${code}`));
      resolve(JSON.parse(readFileSync(json, 'utf8')) as PartResult);
    });
  });
}

const started = performance.now();
const results: PartResult[] = [];
for (const name of parts) {
  process.stderr.write(`\n=== ${name}${smoke ? ' (smoke)' : ''}\n`);
  const result = await runPart(name);
  process.stderr.write(`=== ${name}: ${result.seconds} s\n`);
  results.push(result);
}
const minutes = (performance.now() - started) / 60_000;

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const summary = renderTable({
  title: 'Targets',
  header: ['part', 'target', 'goal', 'measured', 'met'],
  rows: results.flatMap((r) => r.targets.map((t) => [r.part, t.name, t.goal, t.measured, t.met ? 'met' : '**not met**'])),
});
const report = [
  `# Glance benchmarks${smoke ? ' (smoke)' : ''}`,
  '',
  `${new Date().toISOString()} · ${machine} · ${minutes.toFixed(1)} min · parts: ${parts.join(', ')}`,
  '',
  summary,
  '',
  results.map(renderPart).join('\n\n'),
].join('\n');
writeFileSync(join(out, 'results.json'), `${JSON.stringify({ machine, minutes, results }, null, 2)}\n`);
writeFileSync(join(out, 'report.md'), `${report}\n`);
process.stdout.write(`${report}\n`);
