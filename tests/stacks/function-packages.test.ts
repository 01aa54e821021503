/**
 * The function's packages are taken from node_modules with their dependencies in npm's nesting
 * (stacks/package-closure.ts) and checked against the lock file (stacks/function-packages.ts), on a small
 * checkout made here. The staged function itself is checked in bundle.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { installedPackages, unlockedPackages } from '../../stacks/function-packages.ts';
import { closure, copyPackages } from '../../stacks/package-closure.ts';

const root = mkdtempSync(join(tmpdir(), 'glance-packages-'));
after(() => rmSync(root, { recursive: true, force: true }));

function install(path: string, version: string, manifest: Record<string, unknown> = {}): void {
  const dir = join(root, path);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: path.split('node_modules/').at(-1), version, ...manifest }));
}

// app needs dep@1 (nested under it) and shared; the hoisted dep@2 is someone else's. @scope/opt is optional.
install('node_modules/app', '1.0.0', { dependencies: { dep: '^1', shared: '^3' }, optionalDependencies: { '@scope/opt': '1' } });
install('node_modules/app/node_modules/dep', '1.2.0');
install('node_modules/dep', '2.0.0');
install('node_modules/shared', '3.1.0', { dependencies: { '@sentry/node': '^8' } });
install('node_modules/@scope/opt', '1.0.0');
install('node_modules/@sentry/node', '8.0.0');
writeFileSync(join(root, 'package-lock.json'), JSON.stringify({
  packages: {
    '': {},
    'node_modules/app': { version: '1.0.0' },
    'node_modules/app/node_modules/dep': { version: '1.2.0' },
    'node_modules/dep': { version: '2.0.0' },
    'node_modules/shared': { version: '3.0.0' },
    'node_modules/@scope/opt': { version: '1.0.0' },
  },
}));

test('a package comes with the dependencies it resolves to, nested as npm laid them out, skipping what is asked', () => {
  const all = closure(root, ['app'], { optional: true }).map((dir) => relative(root, dir));
  assert.deepEqual(all.sort(), ['node_modules/@scope/opt', 'node_modules/@sentry/node', 'node_modules/app', 'node_modules/app/node_modules/dep', 'node_modules/shared']);
  const shipped = closure(root, ['app'], { optional: false, skip: (name) => name.startsWith('@sentry/') });
  assert.deepEqual(shipped.map((dir) => relative(root, dir)).sort(), ['node_modules/app', 'node_modules/app/node_modules/dep', 'node_modules/shared']);
  const modules = join(root, 'out', 'node_modules');
  copyPackages(root, shipped, modules);
  assert.deepEqual([...installedPackages(modules)].sort(), [
    ['node_modules/app', '1.0.0'],
    ['node_modules/app/node_modules/dep', '1.2.0'],
    ['node_modules/shared', '3.1.0'],
  ]);
});

test('a package whose version is not the lock file\'s at its path is named, with the locked one', () => {
  assert.deepEqual(unlockedPackages(root, join(root, 'node_modules')).sort(), ['@sentry/node 8.0.0 (locked: none)', 'shared 3.1.0 (locked: 3.0.0)']);
});

test('a dependency that is not installed fails with what needs it', () => {
  install('node_modules/broken', '1.0.0', { dependencies: { absent: '1' } });
  assert.throws(() => closure(root, ['broken'], { optional: false }), /absent, needed by node_modules\/broken, is not installed/);
});
