/**
 * puppeteer-core speaks the DevTools protocol of one Chrome release (its PUPPETEER_REVISIONS); the Lambda layer
 * ships @sparticuz/chromium, whose major version is the Chromium major it bundles. They must stay in step, so
 * puppeteer-core is pinned to an exact version and this test fails when either moves alone. Locally, Debian's
 * Chromium follows Debian's security updates, not the lock file: a different major there is only a warning.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { PUPPETEER_REVISIONS } from 'puppeteer-core/internal/revisions.js';
import { findChromium } from '../../lib/browser/launch.ts';

/** The installed package's manifest (read by path: @sparticuz/chromium's exports do not include it). */
const manifest = (name: string) => JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string };
const project = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const major = (version: string): number => Number(/(\d+)\./.exec(version)?.[1]);

const puppeteerChrome = major(PUPPETEER_REVISIONS.chrome);

test('puppeteer-core is pinned to an exact version, and that version is the one installed', () => {
  const pinned = project.dependencies['puppeteer-core'];
  assert.match(pinned ?? '', /^\d+\.\d+\.\d+$/, 'an exact version: a range would let npm pick a release for another Chrome');
  assert.equal(manifest('puppeteer-core').version, pinned);
});

test("puppeteer-core's Chrome is the Chromium major the Lambda layer ships", () => {
  const layer = manifest('@sparticuz/chromium').version;
  assert.equal(puppeteerChrome, major(layer), `puppeteer-core targets Chrome ${PUPPETEER_REVISIONS.chrome}, @sparticuz/chromium ${layer} ships Chromium ${major(layer)}: ` +
    'pin the puppeteer-core release whose PUPPETEER_REVISIONS.chrome has that major (npm pack puppeteer-core@<v>, lib/puppeteer/revisions.js)');
  // A caret range on @sparticuz/chromium moves within its major only, which is the Chromium major.
  assert.match(project.devDependencies['@sparticuz/chromium'] ?? '', new RegExp(`^[~^]?${major(layer)}\\.`));
});

test("the local Chromium's major, compared with puppeteer-core's (a warning only)", async (t) => {
  let path: string;
  try {
    path = findChromium(process.env.CHROMIUM_PATH);
  } catch {
    t.skip('no local Chromium');
    return;
  }
  const { stdout } = await promisify(execFile)(path, ['--version'], { timeout: 10_000 });
  const local = major(stdout.replace(/^\D+/, ''));
  assert.ok(local > 0, `a version from ${path} --version: ${stdout}`);
  if (local !== puppeteerChrome) {
    const warning = `warning: the local Chromium is ${stdout.trim()} (${path}), puppeteer-core ${manifest('puppeteer-core').version} targets Chrome ` +
      `${PUPPETEER_REVISIONS.chrome}; the Lambda layer's Chromium matches puppeteer-core, the local one may behave differently`;
    t.diagnostic(warning);
  }
});
