/**
 * `npm run smoke -- <ApiEndpoint> [--target <url>] [--api-key <key>]`: run after `npx sst deploy` (or against the
 * local service) to see a deployment answer as callers need it. Prints one row per check (PASS, FAIL, WARN, SKIP) and
 * exits 1 when any failed, 2 on bad usage. The checks are scripts/smoke/checks.ts.
 */
import { parseArgs } from 'node:util';
import { runChecks, type CheckResult, type SmokeOptions } from './smoke/checks.ts';

/** A public page every deployment may fetch, small and stable. */
const DEFAULT_TARGET = 'https://example.com/';
/** The API's own budget is 28 s; a cold start and the way there get the rest. */
const DEFAULT_TIMEOUT_MS = 40_000;
/** Where `npx sst deploy` writes the stacks' outputs, relative to the project. */
const DEFAULT_OUTPUTS = '.sst/outputs.json';

const USAGE = `usage: npm run smoke -- <ApiEndpoint> [--target <public page URL>] [--api-key <key>] [--timeout <ms>]
  <ApiEndpoint>  the stack's ApiEndpoint output (or http://localhost:3000 for the local service)
  --target       the page to read and capture (default ${DEFAULT_TARGET}; also GLANCE_SMOKE_TARGET)
  --api-key      sent as x-api-key when the API requires keys (also GLANCE_API_KEY)
  --timeout      longest one answer may take, in ms (default ${DEFAULT_TIMEOUT_MS})
  --outputs      SST's outputs file, where the stack says where its alarms go (default ${DEFAULT_OUTPUTS})`;

function readOptions(argv: string[]): SmokeOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { target: { type: 'string' }, 'api-key': { type: 'string' }, timeout: { type: 'string' }, outputs: { type: 'string' } },
  });
  const [endpoint] = positionals;
  if (positionals.length !== 1 || !endpoint || !URL.canParse(endpoint)) throw new Error('give the API endpoint, e.g. https://d1234.cloudfront.net');
  const target = values.target ?? (process.env.GLANCE_SMOKE_TARGET || DEFAULT_TARGET);
  if (!URL.canParse(target)) throw new Error(`--target must be a URL, got "${target}"`);
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1000) throw new Error(`--timeout must be a number of ms ≥ 1000, got "${values.timeout}"`);
  const outputsFile = values.outputs ?? DEFAULT_OUTPUTS;
  return { endpoint, target, apiKey: values['api-key'] ?? (process.env.GLANCE_API_KEY || undefined), timeoutMs, outputsFile };
}

function table(results: readonly CheckResult[]): string {
  const rows = [['check', 'result', 'ms', 'detail'], ...results.map((r) => [r.name, r.outcome, String(r.ms), r.detail])];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  ');
  return [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('  ') + '  ------', ...rows.slice(1).map(line)].join('\n');
}

let options: SmokeOptions;
try {
  options = readOptions(process.argv.slice(2));
} catch (error) {
  console.error(`smoke: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
console.log(`smoke: ${options.endpoint} reading ${options.target}\n`);
const results = await runChecks(options);
const count = (outcome: string) => results.filter((result) => result.outcome === outcome).length;
const failed = count('FAIL');
console.log(table(results));
const notes = [count('WARN') && `${count('WARN')} warned`, count('SKIP') && `${count('SKIP')} skipped`].filter(Boolean);
console.log(`\n${failed === 0 ? 'PASS' : 'FAIL'}: ${count('PASS')} of ${results.length} checks passed${notes.length ? `, ${notes.join(', ')}` : ''}`);
process.exitCode = failed === 0 ? 0 : 1;
