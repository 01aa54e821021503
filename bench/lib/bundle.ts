/**
 * The Lambda function bundle, built the way the stack builds it: SST's own esbuild with the options SST v2 passes
 * it for an ESM function (node_modules/sst/runtime/handlers/node.js) and the stack's own `nodejs` options
 * (stacks/bundling.ts: minify, code splitting, the external packages), without synthesising the whole CDK app. With
 * `sourcemap`, the same chunks come with source maps, which the deployed function does not ship: for mapping a
 * logged position back to TypeScript.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTION_BUNDLING } from '../../stacks/bundling.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Output {
  bytes: number;
  entryPoint?: string;
  imports: { path: string; kind: string; external?: boolean }[];
}

interface Esbuild {
  version: string;
  build(options: Record<string, unknown>): Promise<{ errors: unknown[]; metafile: { outputs: Record<string, Output> } }>;
}

export interface Bundle {
  /** functions/api.mjs, inside the checkout so its externals resolve from the project's node_modules. */
  file: string;
  /** Every chunk's path, the entry first. */
  chunks: string[];
  /** The entry chunk alone. */
  entryBytes: number;
  /** The entry and the chunks it imports statically: what importing the handler reads and compiles. */
  importBytes: number;
  /** The chunks that import loads (the entry among them). */
  importChunks: number;
  /** Every chunk: the function's own code as shipped. */
  bytes: number;
  esbuildVersion: string;
}

/** SST's own externals (node.js's forceExternal) with the stack's `esbuild.external`. */
const EXTERNAL = ['sharp', 'pg-native', ...FUNCTION_BUNDLING.esbuild.external];

export async function buildBundle(outDir = join(ROOT, 'bench', 'out', 'bundle'), { sourcemap = FUNCTION_BUNDLING.sourcemap }: { sourcemap?: boolean } = {}): Promise<Bundle> {
  // SST pins its own esbuild; use that one, as a deploy would.
  const esbuild = createRequire(join(ROOT, 'node_modules', 'sst', 'package.json'))('esbuild') as Esbuild;
  const dir = join(outDir, 'functions');
  // A previous build's chunks (their names are content hashes) must not be counted or loaded.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { metafile } = await esbuild.build({
    entryPoints: Object.fromEntries(Object.entries(FUNCTION_BUNDLING.esbuild.entryPoints).map(([name, path]) => [name, join(ROOT, path)])),
    platform: 'node',
    external: EXTERNAL,
    keepNames: true,
    bundle: true,
    logLevel: 'silent',
    splitting: FUNCTION_BUNDLING.splitting,
    metafile: true,
    outExtension: FUNCTION_BUNDLING.splitting ? { '.js': '.mjs' } : undefined,
    format: FUNCTION_BUNDLING.format,
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
    ...(FUNCTION_BUNDLING.splitting ? { outdir: dir } : { outfile: join(dir, 'api.mjs') }),
    sourcemap,
    minify: FUNCTION_BUNDLING.minify,
    plugins: FUNCTION_BUNDLING.esbuild.plugins,
  });
  // The metafile names outputs relative to the working directory.
  const outputs = new Map(Object.entries(metafile.outputs).map(([path, output]) => [join(process.cwd(), path), output]));
  const file = join(dir, 'api.mjs');
  const code = [...outputs.keys()].filter((path) => path.endsWith('.mjs'));
  const loaded = new Set([file]);
  for (const path of loaded) {
    for (const { path: imported, kind, external } of outputs.get(path)!.imports) {
      if (kind === 'import-statement' && !external) loaded.add(join(process.cwd(), imported));
    }
  }
  const size = (paths: Iterable<string>) => [...paths].reduce((sum, path) => sum + outputs.get(path)!.bytes, 0);
  return {
    file,
    chunks: [file, ...code.filter((path) => path !== file)],
    entryBytes: outputs.get(file)!.bytes,
    importBytes: size(loaded),
    importChunks: loaded.size,
    bytes: size(code),
    esbuildVersion: esbuild.version,
  };
}
