/**
 * SIGTERM to the Lambda handler's process (what the Lambda runtime sends before it shuts an execution environment
 * down): the module's own handler closes the core, the screenshot in flight is answered 200 (puppeteer's signal
 * handlers are off, so nothing kills the browser under it), no Chromium is launched after the signal, and the
 * process exits 0 with its browser closed.
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
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { q } from '../helpers/service.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Marks the child's own lines among Powertools' JSON logs on the same stdout. */
const MARK = 'glance-test ';

/** Two invocations in a row, as Lambda makes them, each answer's status reported on stdout; then it idles. */
const child = (warm: string, slow: string) => `
  const { handler } = await import(${JSON.stringify(join(ROOT, 'functions/api.ts'))});
  const { apiEvent, lambdaContext } = await import(${JSON.stringify(join(ROOT, 'tests/stacks/lambda.ts'))});
  const say = (line) => process.stdout.write(${JSON.stringify(MARK)} + JSON.stringify(line) + '\\n');
  say({ warm: (await handler(apiEvent(${JSON.stringify(warm)}), lambdaContext)).statusCode });
  say({ slow: (await handler(apiEvent(${JSON.stringify(slow)}), lambdaContext)).statusCode });
  setInterval(() => undefined, 60_000);
`;

describe("SIGTERM in the Lambda handler's process", { timeout: 60_000 }, () => {
  let site: TestServer;
  let dir: string;
  let lambda: ChildProcess;
  const said: Array<Record<string, number>> = [];
  before(async () => {
    site = await startServer({
      '/': html('<title>warm</title>'),
      // Slow enough that the signal arrives while the capture is being made.
      '/slow': async (req, res) => {
        await delay(1_500);
        html('<title>slow</title><body style="background:#08f">slow page')(req, res);
      },
    });
    dir = await mkdtemp(join(tmpdir(), 'glance-lambda-sigterm-'));
    const shot = (path: string) => q(`${site.url}${path}`, 'screenshot&meta=false');
    lambda = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', child(shot('/'), shot('/slow'))], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        GLANCE_ALLOW_HOSTS: '127.0.0.1',
        GLANCE_STORAGE_DIR: join(dir, 'assets'),
        GLANCE_CACHE_DIR: join(dir, 'cache'),
        GLANCE_CHROMIUM_ARGS: JSON.stringify(TEST_BROWSER_ARGS),
      },
    });
    let buffered = '';
    lambda.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.startsWith(MARK)) said.push(JSON.parse(line.slice(MARK.length)));
    });
  });
  after(async () => {
    if (lambda.exitCode === null && lambda.signalCode === null) lambda.kill('SIGKILL');
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  const until = async (done: () => boolean, what: string) => {
    for (let waited = 0; !done(); waited += 20) {
      if (waited > 30_000) throw new Error(`gave up waiting for ${what}`);
      await delay(20);
    }
  };

  test('the capture in flight is answered, nothing is launched, the browser closes and the process exits 0', async () => {
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      lambda.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await until(() => said.length > 0, 'the warm-up answer');
    assert.deepEqual(said[0], { warm: 200 });
    const pid = lambda.pid!;
    const browsersBefore = browsersUnder(pid);
    assert.ok(browsersBefore.size > 0, 'a browser runs after the warm-up invocation');

    await until(() => site.hits.includes('/slow'), 'the slow page to be requested');
    lambda.kill('SIGTERM');
    const watch = watchLaunches(pid, browsersBefore);
    const { code, signal } = await exited;
    const launched = await watch.stop();

    assert.deepEqual(said, [{ warm: 200 }, { slow: 200 }], 'the invocation in flight was answered');
    assert.deepEqual({ code, signal }, { code: 0, signal: null });
    assert.equal(launched.size, 0, 'no Chromium launched after SIGTERM');
    for (const browser of browsersBefore) assert.throws(() => process.kill(browser, 0), 'the browser is gone after exit');
  });
});
