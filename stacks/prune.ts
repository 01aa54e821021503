/**
 * What the function's installed packages carry that Glance never loads, removed after SST's `npm install` so the
 * function and its layers (Chromium, fonts) stay under Lambda's 250 MB (unzipped) limit:
 * - Lighthouse depends on `@sentry/node` (and through it `@opentelemetry/*`, 50 MB together) for its CLI's opt-in
 *   error reporting, imported only when `enableErrorReporting` is set, which Glance never sets
 *   (lib/browser/lighthouse.ts);
 * - source maps and TypeScript declarations (about 30 MB across puppeteer-core, chromium-bidi, Lighthouse's trace
 *   engine and the fingerprints): nothing reads them at run time (the function runs without --enable-source-maps);
 * - autoconsent's tests, browser-extension builds and per-tool rule sources (10 MB): lib/browser/consent.ts reads
 *   only its ESM entry, its Playwright build and the compact rules.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const UNUSED_SCOPES = ['@sentry', '@opentelemetry'] as const;
/** Folders of installed packages Glance never reads (paths under node_modules). */
export const UNUSED_PATHS = [
  '@duckduckgo/autoconsent/tests',
  '@duckduckgo/autoconsent/tests-wtr',
  '@duckduckgo/autoconsent/dist/addon-firefox',
  '@duckduckgo/autoconsent/dist/addon-mv3',
  '@duckduckgo/autoconsent/rules/autoconsent',
  '@duckduckgo/autoconsent/rules/generated',
] as const;
/** Files no package reads at run time. */
export const UNUSED_FILES = /\.(?:map|d\.[cm]?ts)$/;

/** Deletes every file under `dir` whose name matches UNUSED_FILES. */
function pruneFiles(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && UNUSED_FILES.test(entry.name)) rmSync(join(entry.parentPath, entry.name), { force: true });
  }
}

/** Removes the unused scopes from every node_modules folder under `dir` (npm may nest a second copy), then the unused files. */
export function pruneUnused(dir: string): void {
  pruneScopes(dir);
  const modules = join(dir, 'node_modules');
  for (const path of UNUSED_PATHS) rmSync(join(modules, path), { recursive: true, force: true });
  if (existsSync(modules)) pruneFiles(modules);
}

function pruneScopes(dir: string): void {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return;
  for (const scope of UNUSED_SCOPES) rmSync(join(modules, scope), { recursive: true, force: true });
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const packages = entry.name.startsWith('@') ? readdirSync(join(modules, entry.name)).map((name) => join(modules, entry.name, name)) : [join(modules, entry.name)];
    for (const pkg of packages) pruneScopes(pkg);
  }
}
