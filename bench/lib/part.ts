/**
 * What every benchmark part reports, and how a part file runs on its own: `node --import tsx bench/<part>.ts`
 * prints its tables as Markdown; with BENCH_JSON=<file> it also writes its result there (the runner and the smoke
 * test read that). BENCH_SMOKE=1 or `--smoke` shrinks every count so a part takes seconds.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface Table {
  title: string;
  header: string[];
  rows: string[][];
}

/** One of the brief's targets: what was asked, what was measured, and whether it holds. */
export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

export interface PartOutput {
  /** Named figures (milliseconds, ratios, counts): the machine-readable result. */
  metrics: Record<string, number>;
  tables: Table[];
  targets: Target[];
  notes: string[];
}

export interface PartResult extends PartOutput {
  part: string;
  smoke: boolean;
  date: string;
  seconds: number;
  node: string;
}

export interface PartContext {
  smoke: boolean;
  /** Progress, on stderr (stdout is the report). */
  log(message: string): void;
}

export type Part = (ctx: PartContext) => Promise<PartOutput>;

export const isSmoke = (): boolean => process.env['BENCH_SMOKE'] === '1' || process.argv.includes('--smoke');

export function renderTable({ title, header, rows }: Table): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [`**${title}**`, '', line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function renderPart(result: PartResult): string {
  const parts = [`## ${result.part}${result.smoke ? ' (smoke)' : ''}`, ''];
  for (const table of result.tables) parts.push(renderTable(table), '');
  if (result.targets.length > 0) {
    parts.push(
      renderTable({
        title: 'Targets',
        header: ['target', 'goal', 'measured', 'met'],
        rows: result.targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'met' : '**not met**']),
      }),
      '',
    );
  }
  for (const note of result.notes) parts.push(`- ${note}`);
  return parts.join('\n');
}

/** Runs `part` when `moduleUrl` is the script node was started with. */
export async function runIfMain(name: string, moduleUrl: string, part: Part): Promise<void> {
  if (!process.argv[1] || pathToFileURL(process.argv[1]).href !== moduleUrl) return;
  const smoke = isSmoke();
  const started = performance.now();
  const output = await part({ smoke, log: (message) => process.stderr.write(`[${name}] ${message}\n`) });
  const result: PartResult = {
    part: name,
    smoke,
    date: new Date().toISOString(),
    seconds: Math.round((performance.now() - started) / 100) / 10,
    node: process.version,
    ...output,
  };
  process.stdout.write(`${renderPart(result)}\n`);
  const out = process.env['BENCH_JSON'];
  if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  // Keep-alive sockets, a browser's pipes or a worker must not hold a finished part open.
  process.exit(0);
}
