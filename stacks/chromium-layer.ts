/**
 * The Chromium Lambda layer, built at synth time from the installed @sparticuz/chromium (a dev dependency, so its
 * version is the lock file's) into .build/, which git ignores. A layer lands in /opt, and Node looks for a layer's
 * packages in /opt/nodejs/node_modules; lib/browser/launch.ts imports it from there by path (ESM does not search
 * NODE_PATH). The package's runtime dependencies (tar-fs and what it needs) are copied with it (package-closure.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildOnce } from './build-once.ts';
import { closure, copyPackages, readManifest } from './package-closure.ts';

export const CHROMIUM_PACKAGE = '@sparticuz/chromium';

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
  // Optional dependencies that npm skipped on this platform (bare-fs, for the Bare runtime) are not needed.
  const packages = closure(root, [CHROMIUM_PACKAGE], { optional: true });
  // Named for every package version in it, so an update of any of them (not only Chromium's) builds a new layer.
  const fingerprint = createHash('sha256');
  for (const dir of packages) fingerprint.update(`${relative(modules, dir)}@${readManifest(dir).version}\n`);
  const layer = join(root, '.build', `chromium-layer-${version}-${fingerprint.digest('hex').slice(0, 12)}`);
  buildOnce(layer, (staging) => copyPackages(root, packages, join(staging, 'nodejs', 'node_modules')));
  return { path: layer, version };
}
