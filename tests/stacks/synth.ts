/**
 * Synthesises the real SST app offline, the way `sst deploy` does (initProject, sst.config.ts compiled by SST's own
 * loader, App, the config's stacks, then app.finish(), which bundles the function with esbuild and runs the stack's
 * build hook: packages copied from node_modules, sharp's linux-x64 binaries installed) minus everything that needs
 * AWS: NODE_ENV=test makes SST skip its bootstrap-stack lookup, the account is a fixed dummy and the credentials are
 * fake. The sharp install only needs the registry (or npm's cache).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { SSTConfig } from 'sst';
import { App, Stack } from 'sst/constructs';
import { initProject, useProject } from 'sst/project.js';
import { load } from 'sst/stacks/build.js';

process.env.NODE_ENV = 'test';
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID ??= 'test';
process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
process.env.AWS_REGION ??= 'us-east-1';
// sharp's linux-x64 binaries are installed with npm (stacks/sharp.ts): let it use npm's cache before the network.
process.env.npm_config_prefer_offline ??= 'true';

export const ACCOUNT = '123456789012';
export const REGION = 'us-east-1';

export interface Synthesized {
  readonly template: Template;
  /** The folder CDK staged an asset into (found by its S3 key in the template): exactly what gets zipped. */
  assetDir(s3Key: unknown): string;
  /** Removes the CDK output folder. */
  dispose(): void;
}

interface AssetManifest {
  readonly files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
}

export interface SynthOptions {
  /** Deployment settings (stacks/settings.ts) in force while the stacks are built. */
  readonly env?: Record<string, string>;
}

export async function synth(stage: string, { env = {} }: SynthOptions = {}): Promise<Synthesized> {
  const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
  await initProject({ stage, root, region: REGION });
  const outdir = mkdtempSync(join(tmpdir(), 'glance-cdk-'));
  const app = new App({ mode: 'deploy', stage, name: useProject().config.name, region: REGION, account: ACCOUNT }, { outdir });
  const [, config] = (await load(join(root, 'sst.config.ts'), false)) as [unknown, SSTConfig];
  // Only `env` configures the stage: GLANCE_* from this shell or from .env files initProject loaded must not.
  const saved = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('GLANCE_')));
  for (const name of Object.keys(saved)) delete process.env[name];
  Object.assign(process.env, env);
  try {
    await config.stacks(app);
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
    Object.assign(process.env, saved);
  }
  await app.finish();
  const stacks = app.node.children.filter((child): child is Stack => child instanceof Stack);
  assert.equal(stacks.length, 1, 'the app has one stack');
  const stack = stacks[0]!;
  return {
    template: Template.fromStack(stack),
    assetDir: (s3Key) => {
      const manifest = JSON.parse(readFileSync(join(outdir, `${stack.artifactId}.assets.json`), 'utf8')) as AssetManifest;
      const asset = Object.values(manifest.files).find(({ destinations }) => Object.values(destinations).some(({ objectKey }) => objectKey === s3Key));
      if (!asset) throw new Error(`no staged asset for ${String(s3Key)}`);
      return join(outdir, asset.source.path);
    },
    dispose: () => rmSync(outdir, { recursive: true, force: true }),
  };
}
