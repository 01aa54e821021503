/**
 * The Lambda function bundle, built the way the stack builds it (stacks/ → SST v2's Function with
 * `nodejs: { format: 'esm', minify: true, sourcemap: true, install: ['puppeteer-core'], esbuild: { external:
 * ['@sparticuz/chromium'] } }`): SST's own esbuild and the options SST passes it for an ESM function
 * (node_modules/sst/runtime/handlers/node.js), without synthesising the whole CDK app.
 */
import { mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Esbuild {
  version: string;
  build(options: Record<string, unknown>): Promise<{ errors: unknown[] }>;
}

export interface Bundle {
  /** functions/api.mjs, inside the checkout so its externals resolve from the project's node_modules. */
  file: string;
  bytes: number;
  mapBytes: number;
  esbuildVersion: string;
}

export async function buildBundle(outDir = join(ROOT, 'bench', 'out', 'bundle')): Promise<Bundle> {
  // SST pins its own esbuild; use that one, as a deploy would.
  const esbuild = createRequire(join(ROOT, 'node_modules', 'sst', 'package.json'))('esbuild') as Esbuild;
  const file = join(outDir, 'functions', 'api.mjs');
  mkdirSync(dirname(file), { recursive: true });
  await esbuild.build({
    entryPoints: [join(ROOT, 'functions', 'api.ts')],
    platform: 'node',
    // SST's forced externals, the `install` list's code packages and the stack's `esbuild.external`.
    external: ['sharp', 'pg-native', 'puppeteer-core', 'lighthouse', '@sparticuz/chromium'],
    keepNames: true,
    bundle: true,
    logLevel: 'silent',
    metafile: true,
    format: 'esm',
    target: 'esnext',
    mainFields: ['module', 'main'],
    banner: {
      js: [
        `import { createRequire as topLevelCreateRequire } from 'module';`,
        `const require = topLevelCreateRequire(import.meta.url);`,
        `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
        `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
        '',
      ].join('\n'),
    },
    outfile: file,
    sourcemap: true,
    minify: true,
  });
  return { file, bytes: statSync(file).size, mapBytes: statSync(`${file}.map`).size, esbuildVersion: esbuild.version };
}
