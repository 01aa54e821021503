/**
 * The function's node_modules: the packages it loads beside its bundle (bundling.ts, SHIPPED_PACKAGES) and their
 * runtime dependencies, copied from this checkout (package-closure.ts) rather than left to SST's `install`, which
 * runs a plain `npm install` of package.json's ranges and so ignores the lock file (4 of 200 deployed packages
 * differed from it). The build refuses a checkout whose node_modules no longer matches its lock file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHIPPED_PACKAGES } from './bundling.ts';
import { closure, copyPackages, readManifest } from './package-closure.ts';
import { UNUSED_SCOPES } from './prune.ts';
import { installSharpBinaries } from './sharp.ts';

interface LockFile {
  readonly packages: Record<string, { readonly version?: string }>;
}

/** Every package folder under `modules`, nested ones too, by its path as a lock file names it (`node_modules/a/node_modules/b`). */
export function installedPackages(modules: string, prefix = 'node_modules'): Map<string, string> {
  const found = new Map<string, string>();
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const names = entry.name.startsWith('@') ? readdirSync(join(modules, entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name];
    for (const name of names) {
      const dir = join(modules, name);
      if (!existsSync(join(dir, 'package.json'))) continue;
      found.set(`${prefix}/${name}`, readManifest(dir).version);
      for (const [path, version] of installedPackages(join(dir, 'node_modules'), `${prefix}/${name}/node_modules`)) found.set(path, version);
    }
  }
  return found;
}

/** The packages under `modules` whose version is not the one `root`'s package-lock.json holds at that path. */
export function unlockedPackages(root: string, modules: string): string[] {
  const { packages } = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as LockFile;
  return [...installedPackages(modules)]
    .filter(([path, version]) => packages[path]?.version !== version)
    .map(([path, version]) => `${path.replace(/^node_modules\//, '')} ${version} (locked: ${packages[path]?.version ?? 'none'})`);
}

/** Fills `out/node_modules` with the shipped packages at their locked versions. */
export async function shipPackages(root: string, out: string): Promise<void> {
  const modules = join(out, 'node_modules');
  // Lighthouse's opt-in error reporting, never turned on (prune.ts): not copied, nor what only it needs.
  const packages = closure(root, SHIPPED_PACKAGES, { optional: false, skip: (name) => UNUSED_SCOPES.some((scope) => name.startsWith(`${scope}/`)) });
  copyPackages(root, packages, modules);
  await installSharpBinaries(root, modules);
  const unlocked = unlockedPackages(root, modules);
  if (unlocked.length) throw new Error(`node_modules does not match package-lock.json (run npm ci): ${unlocked.join(', ')}`);
}
