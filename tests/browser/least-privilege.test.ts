/**
 * Chromium with least privilege (issue 11 item 8): it runs strangers' JavaScript, so it gets a minimal environment
 * (no AWS credentials, which the service's own environment holds) and cannot open popups. Read from the running
 * processes themselves: /proc/<pid>/environ of the browser and every process under it.
 */
import assert from 'node:assert/strict';
import type { Target } from 'puppeteer-core';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Renderer } from '../../lib/browser/index.ts';
import { chromiumEnv } from '../../lib/browser/launch.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { chromiumChildren, render, testRenderer } from './helpers.ts';

/** `pids` and all their descendants, from /proc/<pid>/stat (`pid (comm) state ppid …`). */
function withDescendants(pids: Set<number>): Set<number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found = new Set(pids);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) if (found.has(ppid) && !found.has(pid)) grew = Boolean(found.add(pid));
  }
  return found;
}

const environOf = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
};

describe('Chromium with least privilege', () => {
  const saved = { ...process.env };
  let site: TestServer;
  let renderer: Renderer;
  before(async () => {
    // The service's environment as Lambda gives it: credentials a page must never be able to reach.
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIADUMMYDUMMYDUMMY',
      AWS_SECRET_ACCESS_KEY: 'dummy-secret',
      AWS_SESSION_TOKEN: 'dummy-session-token',
      GLANCE_API_KEYS: 'dummy-api-key',
    });
    site = await startServer({
      '/popups': html(`<title>popups</title><a id="blank" href="/popups" target="_blank">new</a>
<script>let opened = 0; for (let i = 0; i < 200; i++) if (window.open('about:blank')) opened++; document.title = 'opened ' + opened;</script>`),
    });
    // No spare: its blank page would count among the pages left open below.
    renderer = await testRenderer('127.0.0.1', undefined, { GLANCE_BROWSER_SPARE: 'false' });
  });
  after(async () => {
    await renderer.close();
    await site.close();
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'GLANCE_API_KEYS']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  test('no Chromium process holds AWS credentials or the service settings; it has what it needs', async () => {
    const before = chromiumChildren();
    await render(renderer, `${site.url}/popups`, 'screenshot');
    const browsers = [...chromiumChildren()].filter((pid) => !before.has(pid));
    assert.ok(browsers.length > 0, 'a browser was started by this test');
    const processes = withDescendants(new Set(browsers));
    assert.ok(processes.size > browsers.length, 'its renderers and helpers are read too');
    for (const pid of processes) {
      const environ = environOf(pid);
      if (environ.length === 0) continue;
      assert.deepEqual(environ.filter((entry) => /^(AWS_|GLANCE_)/.test(entry)), [], `process ${pid}`);
      assert.equal(environ.some((entry) => entry.includes('dummy')), false, `process ${pid}`);
    }
    assert.ok(environOf(browsers[0]!).some((entry) => entry.startsWith('PATH=')));
  });

  test('popups are refused: window.open answers null and a target=_blank click opens nothing', async () => {
    // Counted as the browser makes them: the request's own page closes after its answer, a popup with it.
    const browser = await renderer.getBrowser();
    const opened: string[] = [];
    const onCreated = (target: Target) => {
      if (target.type() === 'page') opened.push(target.url());
    };
    browser.on('targetcreated', onCreated);
    try {
      const result = await render(renderer, `${site.url}/popups`, 'click=%23blank', { capture: { html: true } });
      assert.match(result.html ?? '', /<title>opened 0<\/title>/);
    } finally {
      browser.off('targetcreated', onCreated);
    }
    assert.equal(opened.length, 1, `pages opened: ${opened.join(', ')}`);
  });

  test('chromiumEnv keeps only the listed variables', () => {
    assert.deepEqual(chromiumEnv({ PATH: '/bin', HOME: '/tmp', AWS_SESSION_TOKEN: 't', FONTCONFIG_PATH: '/tmp/fonts', NODE_OPTIONS: 'x' }), {
      PATH: '/bin',
      HOME: '/tmp',
      FONTCONFIG_PATH: '/tmp/fonts',
    });
  });
});
