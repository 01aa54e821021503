/**
 * SIGTERM on the real local service process (npm start's command) with screenshots in flight: every one is
 * answered 200, no Chromium is launched after the signal, and the process exits by itself with no browser left.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { TEST_BROWSER_ARGS } from '../helpers/chromium-args.ts';
import { browsersUnder, watchLaunches } from '../helpers/processes.ts';
import { unusedPort, html, startServer, type TestServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('graceful shutdown of the local service', { timeout: 60_000 }, () => {
  let site: TestServer;
  let dir: string;
  let service: ChildProcess;
  let base: string;
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
    const port = await unusedPort();
    base = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'functions/local.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        PORT: String(port),
        GLANCE_ALLOW_HOSTS: '127.0.0.1',
        GLANCE_STORAGE_DIR: join(dir, 'assets'),
        GLANCE_CACHE_DIR: join(dir, 'cache'),
        GLANCE_CHROMIUM_ARGS: JSON.stringify(TEST_BROWSER_ARGS),
      },
    });
    await new Promise<void>((resolve, reject) => {
      service.stdout!.once('data', () => resolve());
      service.once('exit', (code) => reject(new Error(`the service exited early with ${code}`)));
    });
  });
  after(async () => {
    if (service.exitCode === null) service.kill('SIGKILL');
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('in-flight screenshots are answered, nothing new is launched, and the process exits', async () => {
    const warm = await fetch(`${base}/?${q(`${site.url}/`, 'screenshot&force')}`);
    assert.equal(warm.status, 200);
    const pid = service.pid!;
    const browsersBefore = browsersUnder(pid);
    assert.ok(browsersBefore.size > 0, 'a browser runs after the warm-up request');

    const inFlight = [1, 2, 3].map((n) => fetch(`${base}/?${q(`${site.url}/slow?${n}`, 'screenshot&force')}`).then((r) => r.status));
    // The signal comes while two captures load (the third waits for a page slot): a fixed pause could end before a
    // loaded machine's service has even read the requests, which the shutdown then never answers.
    const loading = () => site.hits.filter((hit) => hit.startsWith('/slow?')).length;
    for (let waited = 0; waited < 20_000 && loading() < 2; waited += 20) await delay(20);
    const exited = new Promise<number | null>((resolve) => service.once('exit', (code) => resolve(code)));
    service.kill('SIGTERM');

    const watch = watchLaunches(pid, browsersBefore);
    const statuses = await Promise.all(inFlight);
    const code = await exited;
    const launched = await watch.stop();

    assert.deepEqual(statuses, [200, 200, 200]);
    assert.equal(code, 0);
    assert.equal(launched.size, 0, 'no Chromium launched after SIGTERM');
    for (const child of browsersBefore) {
      assert.throws(() => process.kill(child, 0), 'the browser is gone after exit');
    }
  });
});
