/**
 * sharp beside the function bundle, for Lambda's linux-x64 (glibc). Its JavaScript and dependencies are copied from
 * this checkout with the other shipped packages (function-packages.ts); its native addon and libvips come in
 * per-platform packages that npm installs only for the platform it runs on, so this checkout has them only when it
 * runs on linux-x64. They are installed here for linux-x64 at the exact versions sharp pins (the lock file's), the
 * way sharp documents a cross-platform install (https://sharp.pixelplumbing.com/install). SST cannot do it: for a
 * package named `sharp` its install step pins sharp 0.32.6 and passes --omit=optional, which drops those packages.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readManifest } from './package-closure.ts';

export const SHARP_PACKAGE = 'sharp';

/** The packages holding sharp's native addon and libvips for Lambda's x86-64 Linux. */
const LINUX_X64 = ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64'];

/** `name@version` for sharp's linux-x64 packages, at the versions the sharp installed in `root` pins. */
export function sharpSpecs(root: string): string[] {
  const manifest = readManifest(join(root, 'node_modules', SHARP_PACKAGE));
  return LINUX_X64.map((name) => {
    const version = manifest.optionalDependencies?.[name];
    if (!version) throw new Error(`sharp ${manifest.version} names no ${name}: update stacks/sharp.ts`);
    return `${name}@${version}`;
  });
}

/** Installs sharp's linux-x64 packages into `modules` (the function's node_modules). */
export async function installSharpBinaries(root: string, modules: string): Promise<void> {
  // A folder of their own: npm would remove from `modules` every package it did not install there.
  const staging = mkdtempSync(join(tmpdir(), 'glance-sharp-'));
  try {
    // Its own project, so npm does not look for one in the folders above.
    writeFileSync(join(staging, 'package.json'), '{"private":true}\n');
    await promisify(execFile)(
      'npm',
      ['install', '--omit=dev', '--omit=optional', '--os=linux', '--cpu=x64', '--libc=glibc', '--no-save', '--no-audit', '--no-fund', ...sharpSpecs(root)],
      { cwd: staging },
    );
    for (const name of LINUX_X64) cpSync(join(staging, 'node_modules', name), join(modules, name), { recursive: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
