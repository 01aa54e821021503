/**
 * The adblock lists in the function's folder. First, the files of @adguard/dnr-rulesets the function needs, copied beside the bundle in place of the whole package
 * (~120 MB of declarative rulesets for ~50 lists, of which lib/browser/adblock-lists.ts reads two): the
 * package's manifest and entry file, which Node needs to resolve the package by name, its licence, and the
 * rulesets of the packaged filters, at the paths they have in the package. Then the deployer's own lists
 * (GLANCE_ADBLOCK_LISTS on the deploying machine), copied into one folder and named to the function there.
 */
import { cp } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import type { FunctionCopyFilesProps } from 'sst/constructs';
import { PACKAGED_FILTERS } from '../lib/browser/adblock-lists.ts';

const PACKAGE = 'node_modules/@adguard/dnr-rulesets';

/** Copies them from `root` into the built function folder `out`, after any npm install there (which would prune them). */
export async function copyPackagedLists(root: string, out: string): Promise<void> {
  const files = [
    'package.json',
    'LICENSE',
    'dist/lib/index.js',
    ...PACKAGED_FILTERS.map(({ id }) => `dist/filters/declarative/ruleset_${id}/ruleset_${id}.json`),
  ];
  await Promise.all(files.map((file) => cp(join(root, PACKAGE, file), join(out, PACKAGE, file))));
}

/** Where Lambda unpacks the function (LAMBDA_TASK_ROOT), and the folder of the deployer's lists in it. */
const TASK_ROOT = '/var/task';
const DEPLOYER_FOLDER = 'adblock-lists';

export interface DeployerLists {
  readonly copyFiles: FunctionCopyFilesProps[];
  /** GLANCE_ADBLOCK_LISTS for the function; undefined when there are none. */
  readonly setting: string | undefined;
}

/** `paths` are absolute; SST copies from paths relative to the project `root`. Numbered: two lists may share a name. */
export function deployerLists(root: string, paths: readonly string[]): DeployerLists {
  const placed = paths.map((path, index) => ({ from: relative(root, path), to: `${DEPLOYER_FOLDER}/${index}-${basename(path)}` }));
  return {
    copyFiles: placed,
    setting: placed.length > 0 ? placed.map(({ to }) => `${TASK_ROOT}/${to}`).join(',') : undefined,
  };
}
