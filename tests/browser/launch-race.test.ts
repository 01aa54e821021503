/**
 * Launches that meet the browser half ready (issue 26): a binary still being unpacked (@sparticuz/chromium writes
 * /tmp/chromium on a cold Lambda, and answers its path as soon as the file exists), and a wedged browser replaced
 * with every process it started.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { BrowserHost, UNHEALTHY_LIMIT } from '../../lib/browser/browser.ts';
import { findChromium } from '../../lib/browser/launch.ts';
import { loadConfig } from '../../lib/config.ts';
import { TEST_ARGS } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'glance-unpack-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a launch while the binary is still being unpacked joins the unpack instead of executing a half-written file (ETXTBSY)', { timeout: 60_000 }, async () => {
  // Named like the headless shell, which launch.ts starts in its old headless mode.
  const path = join(dir, 'chromium-headless-shell');
  let created!: () => void;
  const fileExists = new Promise<void>((resolve) => (created = resolve));
  let unpacks = 0;
  // As @sparticuz/chromium's executablePath(): the path at once when the file is there, else a slow unpack into it.
  const unpack = async (): Promise<string> => {
    if (existsSync(path)) return path;
    unpacks += 1;
    const file = await open(path, 'w', 0o755);
    created();
    await file.write('#!/bin/sh\n');
    await delay(1500);
    await file.write(`exec ${findChromium(undefined)} "$@"\n`);
    await file.close();
    return path;
  };
  const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1', GLANCE_CHROMIUM_MODE: 'single' });
  const host = new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs: TEST_ARGS, executable: unpack });
  try {
    const first = host.lease('http://127.0.0.1:9');
    await fileExists;
    const second = host.lease('http://127.0.0.1:9');
    const leases = await Promise.all([first, second]);
    assert.equal(leases.length, 2);
    assert.equal(unpacks, 1, 'unpacked once');
    await Promise.all(leases.map((lease) => lease.release()));
  } finally {
    await host.kill();
  }
});

/** The processes of process group `group` (puppeteer starts each Chromium as a group leader). */
function groupMembers(group: number): number[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,pgid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, pgid]) => pgid === group)
    .map(([pid]) => pid!);
}

test('a wedged browser is replaced with all its processes: none of its stopped children is left', { timeout: 60_000 }, async () => {
  const config = loadConfig({ GLANCE_ALLOW_HOSTS: '127.0.0.1' });
  const host = new BrowserHost({ chromium: config.chromium, policy: config.policy, extraArgs: TEST_ARGS });
  try {
    const browser = await host.getBrowser();
    const group = browser.process()!.pid!;
    assert.ok(groupMembers(group).length > 1, 'the browser started processes of its own');
    // The whole browser stops, its children too (as a frozen instance's were: 7 stopped children, ~480 MiB).
    process.kill(-group, 'SIGSTOP');
    for (let probes = 0; probes < UNHEALTHY_LIMIT; probes++) assert.equal(await host.probe(browser), false);
    assert.ok(host.isGone(browser), 'condemned');
    for (let waited = 0; waited < 5000 && groupMembers(group).length > 0; waited += 100) await delay(100);
    assert.deepEqual(groupMembers(group), [], 'no process of the old browser remains');
    assert.notEqual(await host.getBrowser(), browser, 'a fresh browser serves');
  } finally {
    await host.kill();
  }
});
