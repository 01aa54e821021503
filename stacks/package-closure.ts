/**
 * Installed packages and their runtime dependencies, taken from this checkout's node_modules (laid out by `npm ci`
 * from the lock file) rather than installed anew: what a layer or the function ships is then exactly the locked
 * versions, with the node_modules nesting npm chose, so every import resolves as it does in this checkout.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

export const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Node's lookup for a bare specifier: `node_modules/<name>` in the package's folder, then each folder above. */
function resolvePackage(name: string, from: string, root: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

export interface ClosureOptions {
  /** Installed optional dependencies are taken too (npm skipped those for other platforms). */
  readonly optional: boolean;
  /** Dependencies never taken, nor what only they need. */
  readonly skip?: (name: string) => boolean;
}

/** The folders of the packages `names` (installed under `root`) and of every runtime dependency under them, each once. */
export function closure(root: string, names: readonly string[], { optional, skip = () => false }: ClosureOptions): string[] {
  const found = new Set<string>();
  const take = (name: string, from: string) => {
    const resolved = resolvePackage(name, from, root);
    if (!resolved) throw new Error(`${name}, needed by ${relative(root, from) || 'Glance'}, is not installed in ${root}: run npm ci`);
    found.add(resolved);
  };
  for (const name of names) take(name, root);
  for (const dir of found) {
    const { dependencies = {}, optionalDependencies = {} } = readManifest(dir);
    for (const name of Object.keys(dependencies)) if (!skip(name)) take(name, dir);
    if (!optional) continue;
    for (const name of Object.keys(optionalDependencies)) {
      const resolved = skip(name) ? undefined : resolvePackage(name, dir, root);
      if (resolved) found.add(resolved);
    }
  }
  return [...found];
}

/**
 * Copies the package folders `dirs` (under `root`'s node_modules) to the same paths under `modules`. Nested
 * node_modules are left out: they hold other packages of the closure (copied on their own) or packages not needed.
 */
export function copyPackages(root: string, dirs: readonly string[], modules: string): void {
  const installed = join(root, 'node_modules');
  for (const dir of dirs) {
    const target = join(modules, relative(installed, dir));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(dir, target, { recursive: true, filter: (source) => source === dir || basename(source) !== 'node_modules' });
  }
}
