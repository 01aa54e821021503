/**
 * `npm run smoke` against the local service (as CI runs it) and against a broken API: the operator's one command
 * must pass on a working deployment and fail, with the failing checks named, on a broken one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { startService, type Service } from '../helpers/service.ts';
import { smoke } from '../helpers/smoke.ts';
import { NOBODY } from '../../stacks/monitoring.ts';

const PASSING = ['metadata', 'cache headers', 'screenshot', 'screenshot on the CDN', 'embed 302', 'SSRF refusal', 'timings', 'glyphs', 'pdf', 'proxied image', 'screenshots at once'];
/** Against the local service: an open API and alarms that notify nobody warn; there is no edge cache to hit. */
const WARNING = ['keys enforced', 'alarms'];
const SKIPPED = ['edge cache hit'];
const CHECKS = [...PASSING, ...WARNING, ...SKIPPED];

const PAGE = `<!doctype html><html lang="en"><head><title>Smoke target</title>
<meta name="description" content="The page the smoke test reads."><meta property="og:image" content="/picture.png"></head>
<body><h1>Smoke target</h1><p>${'Plain server-rendered text. '.repeat(30)}</p></body></html>`;

/** The table's row for `check`: its result column. */
const resultOf = (out: string, check: string): string | undefined =>
  new RegExp(`^${check}\\s+(PASS|FAIL|WARN|SKIP)\\s`, 'm').exec(out)?.[1];

describe('npm run smoke', { timeout: 120_000 }, () => {
  let pages: TestServer;
  let service: Service;

  before(async () => {
    const picture = new PNG({ width: 4, height: 4 });
    pages = await startServer({ '/': html(PAGE), '/picture.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG.sync.write(picture)) });
    service = await startService();
  });
  after(async () => {
    await service?.close();
    await pages?.close();
  });

  test('passes every check against the local service, warns of an open API and of alarms nobody hears, and prints them as a table', async (t) => {
    // What `npx sst deploy` would have written for a stack whose alarms notify nobody.
    const dir = mkdtempSync(join(tmpdir(), 'glance-smoke-'));
    const outputs = join(dir, 'outputs.json');
    writeFileSync(outputs, JSON.stringify({ 'prod-glance-Glance': { ApiEndpoint: `${service.url}/`, AlarmTarget: NOBODY } }));
    try {
      const { code, out } = await smoke(service.url, '--target', `${pages.url}/`, '--outputs', outputs);
      t.diagnostic(out);
      assert.equal(code, 0, out);
      for (const check of PASSING) assert.equal(resultOf(out, check), 'PASS', `${check}:\n${out}`);
      for (const check of WARNING) assert.equal(resultOf(out, check), 'WARN', `${check}:\n${out}`);
      for (const check of SKIPPED) assert.equal(resultOf(out, check), 'SKIP', `${check}:\n${out}`);
      assert.match(out, /"Smoke target"/);
      assert.match(out, /alarms notify nobody/);
      assert.match(out, new RegExp(`PASS: ${PASSING.length} of ${CHECKS.length} checks passed, 2 warned, 1 skipped`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('fails, naming the checks, against an API that does not answer as Glance does', async () => {
    const broken = await startServer({ '/': html('<title>Not the API</title>') });
    try {
      const { code, out } = await smoke(broken.url, '--target', `${pages.url}/`);
      assert.equal(code, 1, out);
      // Every check that asks the API fails; where the alarms go is not the API's to say.
      for (const check of CHECKS.filter((name) => name !== 'alarms')) assert.equal(resultOf(out, check), 'FAIL', `${check}:\n${out}`);
      assert.match(out, new RegExp(`FAIL: 0 of ${CHECKS.length} checks passed, 1 skipped`));
    } finally {
      await broken.close();
    }
  });

  test('refuses to run without an endpoint', async () => {
    const { code, out } = await smoke();
    assert.equal(code, 2);
    assert.match(out, /usage: npm run smoke/);
  });
});
