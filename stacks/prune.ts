/**
 * What the function's installed packages carry that Glance never loads, removed after SST's `npm install` so the
 * function and the Chromium layer stay under Lambda's 250 MB (unzipped) limit: Lighthouse depends on `@sentry/node`
 * (and through it `@opentelemetry/*`, 50 MB together) for its CLI's opt-in error reporting, imported only when
 * `enableErrorReporting` is set, which Glance never sets (lib/browser/lighthouse.ts).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const UNUSED_SCOPES = ['@sentry', '@opentelemetry'] as const;

/** Removes the unused scopes from every node_modules folder under `dir` (npm may nest a second copy). */
export function pruneUnused(dir: string): void {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return;
  for (const scope of UNUSED_SCOPES) rmSync(join(modules, scope), { recursive: true, force: true });
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const packages = entry.name.startsWith('@') ? readdirSync(join(modules, entry.name)).map((name) => join(modules, entry.name, name)) : [join(modules, entry.name)];
    for (const pkg of packages) pruneUnused(pkg);
  }
}
