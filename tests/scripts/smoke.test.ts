/**
 * `npm run smoke` against the local service (as CI runs it) and against a broken API: the operator's one command
 * must pass on a working deployment and fail, with the failing checks named, on a broken one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { startService, type Service } from '../helpers/service.ts';
import { smoke } from '../helpers/smoke.ts';

const CHECKS = ['metadata', 'cache headers', 'screenshot', 'screenshot on the CDN', 'embed 302', 'SSRF refusal', 'timings'];

const PAGE = `<!doctype html><html lang="en"><head><title>Smoke target</title>
<meta name="description" content="The page the smoke test reads."></head>
<body><h1>Smoke target</h1><p>${'Plain server-rendered text. '.repeat(30)}</p></body></html>`;

/** The table's row for `check`: its result column. */
const resultOf = (out: string, check: string): string | undefined =>
  new RegExp(`^${check}\\s+(PASS|FAIL)\\s`, 'm').exec(out)?.[1];

describe('npm run smoke', { timeout: 120_000 }, () => {
  let pages: TestServer;
  let service: Service;

  before(async () => {
    pages = await startServer({ '/': html(PAGE) });
    service = await startService();
  });
  after(async () => {
    await service?.close();
    await pages?.close();
  });

  test('passes every check against the local service, and prints them as a table', async (t) => {
    const { code, out } = await smoke(service.url, '--target', `${pages.url}/`);
    t.diagnostic(out);
    assert.equal(code, 0, out);
    for (const check of CHECKS) assert.equal(resultOf(out, check), 'PASS', `${check}:\n${out}`);
    assert.match(out, /"Smoke target"/);
    assert.match(out, /PASS: 7 of 7 checks passed/);
  });

  test('fails, naming the checks, against an API that does not answer as Glance does', async () => {
    const broken = await startServer({ '/': html('<title>Not the API</title>') });
    try {
      const { code, out } = await smoke(broken.url, '--target', `${pages.url}/`);
      assert.equal(code, 1, out);
      for (const check of CHECKS) assert.equal(resultOf(out, check), 'FAIL', `${check}:\n${out}`);
      assert.match(out, /FAIL: 0 of 7 checks passed/);
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
