/**
 * What the function's shipped packages carry that Glance never loads, removed once they are copied beside the
 * bundle, so the function and its layers (Chromium, fonts) keep clear of Lambda's 250 MiB unzipped limit
 * (lambda-size.ts):
 * - Lighthouse depends on `@sentry/node` (and through it `@opentelemetry/*`, 50 MB together) for its CLI's opt-in
 *   error reporting, imported only when `enableErrorReporting` is set, which Glance never sets
 *   (lib/browser/lighthouse.ts): those scopes are never copied (function-packages.ts);
 * - source maps, TypeScript (declarations and sources) and Markdown documents (about 35 MB across puppeteer-core,
 *   chromium-bidi, Lighthouse's trace engine, zod and ajv): nothing reads maps or documents at run time (the function
 *   runs without --enable-source-maps), and Node never runs TypeScript from node_modules;
 * - autoconsent's tests, browser-extension builds and per-tool rule sources (10 MB): lib/browser/consent.ts reads
 *   only its ESM entry, its Playwright build and the compact rules;
 * - the trace engine's own translations and tests (12 MB): Lighthouse carries its insights' strings in its own
 *   locales, and nothing reads the engine's `locales/` folder; third-party-web's domain table as CSV (6 MB), which
 *   only its build scripts read (Lighthouse and the trace engine read its JSON entities); puppeteer-core's build
 *   for web pages (1 MB), which nothing in Node imports.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Scopes of packages never shipped, nor what only they need. */
export const UNUSED_SCOPES = ['@sentry', '@opentelemetry'] as const;
/** Folders and files of shipped packages Glance never reads (paths under node_modules). */
export const UNUSED_PATHS = [
  '@duckduckgo/autoconsent/tests',
  '@duckduckgo/autoconsent/tests-wtr',
  '@duckduckgo/autoconsent/dist/addon-firefox',
  '@duckduckgo/autoconsent/dist/addon-mv3',
  '@duckduckgo/autoconsent/rules/autoconsent',
  '@duckduckgo/autoconsent/rules/generated',
  '@paulirish/trace_engine/locales',
  '@paulirish/trace_engine/test',
  'third-party-web/dist/domain-map.csv',
  'puppeteer-core/lib/es5-iife',
] as const;
/** Files no package reads at run time. */
export const UNUSED_FILES = /\.(?:map|[cm]?ts|md)$/;

/** Deletes every file under `dir` whose name matches UNUSED_FILES. */
function pruneFiles(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && UNUSED_FILES.test(entry.name)) rmSync(join(entry.parentPath, entry.name), { force: true });
  }
}

/** Removes the unused paths under `dir`'s node_modules, then the unused files. */
export function pruneUnused(dir: string): void {
  const modules = join(dir, 'node_modules');
  for (const path of UNUSED_PATHS) rmSync(join(modules, path), { recursive: true, force: true });
  if (existsSync(modules)) pruneFiles(modules);
}
