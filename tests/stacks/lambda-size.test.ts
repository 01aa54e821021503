/**
 * The build's size check (stacks/lambda-size.ts) on staged folders of chosen sizes: files of that length with no
 * data written (sparse), so a folder "larger than Lambda allows" costs no disk and is measured in milliseconds.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { checkLambdaSize, LAMBDA_UNZIPPED_LIMIT, LambdaSizeError, MIN_HEADROOM } from '../../stacks/lambda-size.ts';

const root = mkdtempSync(join(tmpdir(), 'glance-size-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A staged folder holding `bytes` in two files, one of them nested, as a function or a layer is. */
function staged(name: string, bytes: number): { name: string; path: string } {
  const path = join(root, name);
  mkdirSync(join(path, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(path, 'index.mjs'), '');
  truncateSync(join(path, 'index.mjs'), Math.floor(bytes / 2));
  writeFileSync(join(path, 'node_modules', 'pkg', 'data.bin'), '');
  truncateSync(join(path, 'node_modules', 'pkg', 'data.bin'), bytes - Math.floor(bytes / 2));
  return { name, path };
}

test('a function and layers over Lambda\'s limit stop the build at once, with every part\'s size named', () => {
  const parts = [staged('over-function', 120e6), staged('over-chromium', 80e6), staged('over-fonts', 70e6)];
  const started = performance.now();
  assert.throws(() => checkLambdaSize(parts), (error: unknown) => {
    assert.ok(error instanceof LambdaSizeError);
    assert.equal(error.code, 'ELAMBDASIZE');
    assert.equal(error.report.total, 270e6);
    for (const part of ['over-function 120.0 MB', 'over-chromium 80.0 MB', 'over-fonts 70.0 MB', '270.0 MB', '262.1 MB']) {
      assert.ok(error.message.includes(part), `${part} in: ${error.message}`);
    }
    assert.match(error.message, /before any upload/);
    return true;
  });
  assert.ok(performance.now() - started < 2_000, 'measured in seconds at most');
});

test('under the limit but with less than the headroom left, the build stops too', () => {
  const total = Math.ceil(LAMBDA_UNZIPPED_LIMIT * (1 - MIN_HEADROOM / 2));
  assert.throws(() => checkLambdaSize([staged('near-function', total - 60e6), staged('near-layer', 60e6)]), LambdaSizeError);
});

test('with the headroom left, it reports the figures', () => {
  const report = checkLambdaSize([staged('fit-function', 100e6), staged('fit-layer', 80e6)]);
  assert.equal(report.total, 180e6);
  assert.deepEqual(report.parts, [{ name: 'fit-function', bytes: 100e6 }, { name: 'fit-layer', bytes: 80e6 }]);
  assert.ok(Math.abs(report.headroom - (1 - 180e6 / LAMBDA_UNZIPPED_LIMIT)) < 1e-9);
  assert.match(report.summary, /180\.0 MB unzipped .* 31\.3 % free/);
});
