/**
 * SIGTERM on the real local service process (npm start's command) with screenshots in flight: every one is
 * answered 200, no Chromium is launched after the signal, and the process exits by itself with no browser left.
 * A request still running when a (short) grace ends is answered 503 EBUSY, never reset.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { TEST_BROWSER_ARGS } from '../helpers/chromium-args.ts';
import { browsersUnder, watchLaunches } from '../helpers/processes.ts';
import { startLocalProcess, type LocalProcess } from '../helpers/local-process.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';

describe('graceful shutdown of the local service', { timeout: 60_000 }, () => {
  let site: TestServer;
  let dir: string;
  let local: LocalProcess;
  before(async () => {
    site = await startServer({
      // Slow enough that the signal arrives while the captures are being made.
      '/slow': async (_req, res) => {
        await delay(1_500);
        html('<title>slow</title><body style="background:#08f">slow page')(_req, res);
      },
      '/': html('<title>warm</title>'),
    });
    dir = await mkdtemp(join(tmpdir(), 'glance-shutdown-'));
    local = await startLocalProcess({
      GLANCE_ALLOW_HOSTS: '127.0.0.1',
      GLANCE_STORAGE_DIR: join(dir, 'assets'),
      GLANCE_CACHE_DIR: join(dir, 'cache'),
      GLANCE_CHROMIUM_ARGS: JSON.stringify(TEST_BROWSER_ARGS),
    });
  });
  after(async () => {
    if (local.child.exitCode === null) local.child.kill('SIGKILL');
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('in-flight screenshots are answered, nothing new is launched, and the process exits', async () => {
    const warm = await fetch(`${local.base}/?${q(`${site.url}/`, 'screenshot&force')}`);
    assert.equal(warm.status, 200);
    const pid = local.child.pid!;
    const browsersBefore = browsersUnder(pid);
    assert.ok(browsersBefore.size > 0, 'a browser runs after the warm-up request');

    const inFlight = [1, 2, 3].map((n) => fetch(`${local.base}/?${q(`${site.url}/slow?${n}`, 'screenshot&force')}`).then((r) => r.status));
    // The signal comes while two captures load (the third waits for a page slot): a fixed pause could end before a
    // loaded machine's service has even read the requests, which the shutdown then never answers.
    const loading = () => site.hits.filter((hit) => hit.startsWith('/slow?')).length;
    for (let waited = 0; waited < 20_000 && loading() < 2; waited += 20) await delay(20);
    local.child.kill('SIGTERM');

    const watch = watchLaunches(pid, browsersBefore);
    const statuses = await Promise.all(inFlight);
    const code = await local.exited;
    const launched = await watch.stop();

    assert.deepEqual(statuses, [200, 200, 200]);
    assert.equal(code, 0);
    assert.equal(launched.size, 0, 'no Chromium launched after SIGTERM');
    for (const child of browsersBefore) {
      assert.throws(() => process.kill(child, 0), 'the browser is gone after exit');
    }
  });
});

describe('a request past the shutdown grace', { timeout: 120_000 }, () => {
  let site: TestServer;
  let dir: string;
  let local: LocalProcess;
  let release: () => void = () => undefined;
  before(async () => {
    // Answers only when the test lets it: the request is still waiting on its target when the grace ends.
    const released = new Promise<void>((resolve) => (release = resolve));
    site = await startServer({ '/stalled': async (req, res) => released.then(() => html('<title>late</title>')(req, res)) });
    dir = await mkdtemp(join(tmpdir(), 'glance-grace-'));
    local = await startLocalProcess({
      GLANCE_ALLOW_HOSTS: '127.0.0.1',
      GLANCE_STORAGE_DIR: join(dir, 'assets'),
      GLANCE_CACHE_DIR: join(dir, 'cache'),
      GLANCE_SHUTDOWN_GRACE_MS: '500',
    });
  });
  after(async () => {
    release();
    if (local.child.exitCode === null) local.child.kill('SIGKILL');
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('is answered 503 EBUSY with the error payload, not reset, and the process exits', async () => {
    const answer = fetch(`${local.base}/?${q(`${site.url}/stalled`)}`);
    for (let waited = 0; waited < 20_000 && !site.hits.includes('/stalled'); waited += 20) await delay(20);
    assert.ok(site.hits.includes('/stalled'), 'the request reached its target');
    local.child.kill('SIGTERM');
    const response = await answer;
    assert.equal(response.status, 503);
    const body = (await response.json()) as { status: string; code: string };
    assert.equal(body.status, 'error');
    assert.equal(body.code, 'EBUSY');
    assert.equal(response.headers.get('connection'), 'close');
    assert.ok(response.headers.get('x-request-id'));
    assert.equal(await local.exited, 0);
  });
});
