/**
 * GLANCE_BROWSER_AT_INIT in the Lambda handler's module: importing it (Lambda's init phase) leaves Chromium
 * running with its spare page, before any invocation; without the setting nothing is launched until a request needs
 * it. SIGTERM still closes everything and the process exits 0.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TEST_BROWSER_ARGS } from '../helpers/chromium-args.ts';
import { spawnHandlerModule } from '../helpers/handler-module.ts';
import { browsersUnder } from '../helpers/processes.ts';

const MARK = 'glance-test imported';

/** Says the import is done, then idles as a frozen-free instance would. */
const THEN = `
  process.stdout.write(${JSON.stringify(`${MARK}\n`)});
  setInterval(() => undefined, 60_000);
`;

describe('GLANCE_BROWSER_AT_INIT', { timeout: 60_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-at-init-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const atInit of ['true', 'false']) {
    test(`${atInit}: ${atInit === 'true' ? 'Chromium runs once the module is imported' : 'nothing is launched by the import'}; SIGTERM exits 0 with no browser left`, async () => {
      const lambda = spawnHandlerModule(THEN, {
        GLANCE_BROWSER_AT_INIT: atInit,
        GLANCE_STORAGE_DIR: join(dir, 'assets'),
        GLANCE_CACHE_DIR: join(dir, 'cache'),
        GLANCE_CHROMIUM_ARGS: JSON.stringify(TEST_BROWSER_ARGS),
        POWERTOOLS_LOG_LEVEL: 'SILENT',
      }, 'inherit');
      try {
        const exited = new Promise<number | null>((resolve) => lambda.once('exit', (code) => resolve(code)));
        await new Promise<void>((resolve, reject) => {
          let buffered = '';
          lambda.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            buffered += chunk;
            if (buffered.includes(MARK)) resolve();
          });
          void exited.then((code) => reject(new Error(`the module's process exited (${code}) before its import finished`)));
        });
        const browsers = browsersUnder(lambda.pid!);
        assert.equal(browsers.size, atInit === 'true' ? 1 : 0);
        lambda.kill('SIGTERM');
        assert.equal(await exited, 0);
        for (const browser of browsers) assert.throws(() => process.kill(browser, 0), 'the browser is gone after exit');
      } finally {
        if (lambda.exitCode === null && lambda.signalCode === null) lambda.kill('SIGKILL');
      }
    });
  }
});
