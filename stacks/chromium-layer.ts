/**
 * The Chromium Lambda layer, built at synth time from the installed @sparticuz/chromium (a dev dependency, so its
 * version is the lock file's) into .build/, which git ignores. A layer lands in /opt, and Node looks for a layer's
 * packages in /opt/nodejs/node_modules; lib/browser/launch.ts imports it from there by path (ESM does not search
 * NODE_PATH). The package's runtime dependencies (tar-fs and what it needs) are copied with it, keeping the
 * node_modules nesting npm chose, so every import inside the layer resolves exactly as it does in this checkout.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { buildOnce } from './build-once.ts';

export const CHROMIUM_PACKAGE = '@sparticuz/chromium';

interface Manifest {
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Node's lookup for a bare specifier: `node_modules/<name>` in the package's folder, then each folder above. */
function resolvePackage(name: string, from: string, root: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

/** The package folder and every installed runtime dependency under it, each once. */
function closure(entry: string, root: string): string[] {
  const found = new Set<string>([entry]);
  for (const dir of found) {
    const { dependencies = {}, optionalDependencies = {} } = readManifest(dir);
    for (const name of Object.keys(dependencies)) {
      const resolved = resolvePackage(name, dir, root);
      if (!resolved) throw new Error(`${name}, needed by ${relative(root, dir)}, is not installed: run npm ci`);
      found.add(resolved);
    }
    // Optional dependencies that npm skipped on this platform (bare-fs, for the Bare runtime) are not needed.
    for (const name of Object.keys(optionalDependencies)) {
      const resolved = resolvePackage(name, dir, root);
      if (resolved) found.add(resolved);
    }
  }
  return [...found];
}

export interface ChromiumLayer {
  /** The folder to zip: it holds `nodejs/node_modules/@sparticuz/chromium` and its dependencies. */
  readonly path: string;
  readonly version: string;
}

/** Builds the layer folder once per set of package versions (build-once.ts). */
export function buildChromiumLayer(root: string): ChromiumLayer {
  const modules = join(root, 'node_modules');
  const entry = join(modules, CHROMIUM_PACKAGE);
  if (!existsSync(join(entry, 'package.json'))) {
    throw new Error(`${CHROMIUM_PACKAGE} is not installed in ${modules}: run npm ci (it is a dev dependency)`);
  }
  const { version } = readManifest(entry);
  const packages = closure(entry, root);
  // Named for every package version in it, so an update of any of them (not only Chromium's) builds a new layer.
  const fingerprint = createHash('sha256');
  for (const dir of packages) fingerprint.update(`${relative(modules, dir)}@${readManifest(dir).version}\n`);
  const layer = join(root, '.build', `chromium-layer-${version}-${fingerprint.digest('hex').slice(0, 12)}`);
  buildOnce(layer, (staging) => {
    for (const dir of packages) {
      const target = join(staging, 'nodejs', 'node_modules', relative(modules, dir));
      mkdirSync(dirname(target), { recursive: true });
      // Nested node_modules hold other packages of the closure (copied on their own) or packages it does not need.
      cpSync(dir, target, { recursive: true, filter: (source) => source === dir || basename(source) !== 'node_modules' });
    }
  });
  return { path: layer, version };
}
