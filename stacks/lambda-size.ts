/**
 * Lambda refuses a function whose code and layers together exceed 250 MiB unzipped
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html), but only when CloudFormation updates
 * it, after minutes of building and a 160 MB upload. The build measures the staged folders first and stops with
 * the figures when they come near the limit.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** 250 MiB: the function's code and all its layers, unzipped. */
export const LAMBDA_UNZIPPED_LIMIT = 262_144_000;
/** The share of the limit a build must leave free: room for a dependency's next release, found at build time. */
export const MIN_HEADROOM = 0.1;

export interface StagedPart {
  readonly name: string;
  /** The folder that is zipped and uploaded (the layer's or the function's). */
  readonly path: string;
}

export interface SizeReport {
  readonly parts: ReadonlyArray<{ readonly name: string; readonly bytes: number }>;
  readonly total: number;
  /** The share of the limit left free. */
  readonly headroom: number;
  /** One line with the figures, for the build's log and its error. */
  readonly summary: string;
}

export class LambdaSizeError extends Error {
  readonly code = 'ELAMBDASIZE';
  constructor(readonly report: SizeReport) {
    super(
      `${report.summary}: less than the ${MIN_HEADROOM * 100} % this build keeps free, so it stops before any upload. ` +
        'Lambda refuses a function and its layers over 250 MiB unzipped. Leave out what Glance never reads ' +
        '(stacks/prune.ts) or ship less (stacks/bundling.ts, SHIPPED_PACKAGES).',
    );
    this.name = 'LambdaSizeError';
  }
}

/** The bytes of every file under `dir`: what Lambda counts once the zip is unpacked. */
export function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function measure(parts: readonly StagedPart[]): SizeReport {
  const sized = parts.map(({ name, path }) => ({ name, bytes: folderBytes(path) }));
  const total = sized.reduce((sum, { bytes }) => sum + bytes, 0);
  const headroom = 1 - total / LAMBDA_UNZIPPED_LIMIT;
  const summary =
    `function and layers ${mb(total)} unzipped (${sized.map(({ name, bytes }) => `${name} ${mb(bytes)}`).join(', ')}) ` +
    `of Lambda's ${mb(LAMBDA_UNZIPPED_LIMIT)}: ${(headroom * 100).toFixed(1)} % free`;
  return { parts: sized, total, headroom, summary };
}

/** The figures when at least MIN_HEADROOM of the limit is left; a LambdaSizeError otherwise. */
export function checkLambdaSize(parts: readonly StagedPart[]): SizeReport {
  const report = measure(parts);
  if (report.headroom < MIN_HEADROOM) throw new LambdaSizeError(report);
  return report;
}
