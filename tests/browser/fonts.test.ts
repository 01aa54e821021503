/**
 * Locally, screenshots draw the world's top scripts with the fonts scripts/setup.sh installs (Debian's
 * fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji); the deployed function gets the same coverage from its
 * fonts layer (tests/stacks/simulated.ts). Skipped, saying so, on a machine where none of them is installed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { Renderer } from '../../lib/browser/index.ts';
import { scriptFailures, SCRIPTS_PAGE, SCRIPTS_QUERY } from '../../scripts/smoke/glyphs.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { png, render, testRenderer } from './helpers.ts';

/** Whether fontconfig knows any Noto CJK or colour emoji font (FONTCONFIG_FILE is honoured, as Chromium does). */
function notoInstalled(): boolean {
  try {
    return /Noto (Sans|Serif) CJK|Noto Color Emoji/.test(execFileSync('fc-list', [':', 'family'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

describe('fonts on this machine', { skip: !notoInstalled() && "Debian's Noto fonts are not installed (scripts/setup.sh installs them)" }, () => {
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    site = await startServer({ '/': html(SCRIPTS_PAGE) });
    renderer = await testRenderer();
  });
  after(async () => {
    await renderer.close();
    await site.close();
  });

  test('a screenshot draws CJK, Arabic, Hebrew, Devanagari, Thai and colour emoji', async () => {
    const result = await render(renderer, `${site.url}/`, SCRIPTS_QUERY);
    assert.deepEqual(scriptFailures(png(result.screenshot!.body)), []);
  });
});
