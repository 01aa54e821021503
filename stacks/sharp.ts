/**
 * sharp beside the function bundle, for Lambda's linux-x64 (glibc). SST cannot do it: for a package named `sharp`
 * its install step pins sharp 0.32.6 (a workaround for an old cross-platform bug, whose install script downloads
 * libvips) and passes --omit=optional, which drops the prebuilt libvips sharp ≥ 0.33 ships as optional
 * per-platform packages. So the stack marks sharp external (SST then leaves it alone) and this hook installs it
 * after the bundle is built: the version this checkout's lock file holds, with its linux-x64 packages named
 * explicitly, which is how sharp documents a cross-platform install (https://sharp.pixelplumbing.com/install).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const SHARP_PACKAGE = 'sharp';

/** The packages holding sharp's native addon and libvips for Lambda's x86-64 Linux. */
const LINUX_X64 = ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64'];

interface Manifest {
  readonly version: string;
  readonly optionalDependencies?: Record<string, string>;
}

/** `name@version` for sharp and its linux-x64 packages, at the versions installed in `root`. */
export function sharpSpecs(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'node_modules', SHARP_PACKAGE, 'package.json'), 'utf8')) as Manifest;
  const platform = LINUX_X64.map((name) => {
    const version = manifest.optionalDependencies?.[name];
    if (!version) throw new Error(`sharp ${manifest.version} names no ${name}: update stacks/sharp.ts`);
    return `${name}@${version}`;
  });
  return [`${SHARP_PACKAGE}@${manifest.version}`, ...platform];
}

/** Installs sharp for linux-x64 into the built function folder `out` (npm prunes what it did not install there). */
export async function installSharp(root: string, out: string): Promise<void> {
  await promisify(execFile)(
    'npm',
    ['install', '--omit=dev', '--omit=optional', '--os=linux', '--cpu=x64', '--libc=glibc', '--no-audit', '--no-fund', ...sharpSpecs(root)],
    { cwd: out },
  );
}
