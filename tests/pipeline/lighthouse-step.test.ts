/**
 * The Lighthouse step's answer, with a reports' pool that hands back a report of a chosen size: inline up to 3 MB (the
 * result object for `json`, the text for `html`), stored like a screenshot past it and answered as its media object.
 * (The report itself, run in its worker on Chromium, is tests/app/lighthouse.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LighthouseReport } from '../../lib/browser/index.ts';
import { DEFAULT_RETENTION_MS, DEFAULT_STORAGE_MAX_BYTES } from '../../lib/config.ts';
import type { Context } from '../../lib/pipeline/context.ts';
import { INLINE_MAX_BYTES, lighthouse } from '../../lib/pipeline/steps/lighthouse.ts';
import { parseQuery } from '../../lib/query/index.ts';
import type { LighthouseOptions, LighthouseOutput } from '../../lib/query/options.ts';
import type { Storage } from '../../lib/storage/index.ts';
import { createStorage } from '../../lib/stores.ts';
import { Budget } from '../../lib/time/budget.ts';
import { Timings } from '../../lib/time/timings.ts';

const CDN = 'https://cdn.test';

describe('the lighthouse step', () => {
  let dir: string;
  let storage: Storage;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-lighthouse-'));
    storage = createStorage({ kind: 'local', dir, retention: DEFAULT_RETENTION_MS, maxBytes: DEFAULT_STORAGE_MAX_BYTES }, CDN);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Runs the step for `output` with a pool whose report is `text`; answers `data.insights`. */
  async function answer(output: LighthouseOutput, text: string, existing?: object, filename?: string): Promise<Record<string, unknown>> {
    const settings: LighthouseOptions = { output, preset: undefined, settings: {} };
    const report: LighthouseReport = { output, text, result: { lighthouseVersion: 'test' } as LighthouseReport['result'] };
    const jobs: Array<{ setup: { userAgent: string; origin?: string } }> = [];
    const audits = { run: async (_name: string, job: (typeof jobs)[number]) => (jobs.push(job), report) };
    const ctx = {
      url: new URL('https://example.com/'),
      // Real options: the step sets the report's page up as a render of the same request would be.
      options: { ...parseQuery('url=https://example.com/'), filename },
      budget: new Budget(10_000),
      timings: new Timings(),
      deps: { storage, audits, config: { env: {}, userAgent: 'GlanceTest/1.0' }, browserArgs: [] },
      wanted: { lighthouse: settings },
      data: existing ? { insights: existing } : {},
    } as unknown as Context;
    const wanted = lighthouse.wants(ctx);
    assert.deepEqual(wanted, settings);
    await lighthouse.run(ctx, wanted!);
    assert.equal(jobs[0]?.setup.userAgent, 'GlanceTest/1.0', "the report's page set up as a render's would be");
    assert.equal(jobs[0]?.setup.origin, 'https://example.com');
    return ctx.data.insights as Record<string, unknown>;
  }

  test('a report up to 3 MB is inline: the result object for json, the text for html and csv', async () => {
    assert.deepEqual(await answer('json', '{"lighthouseVersion":"test"}'), { lighthouse: { lighthouseVersion: 'test' } });
    assert.deepEqual(await answer('html', '<!doctype html>report'), { lighthouse: '<!doctype html>report' });
    assert.deepEqual(await answer('csv', 'a,b\n1,2', { technologies: [] }), { technologies: [], lighthouse: 'a,b\n1,2' });
  });

  test('a larger report is stored like a screenshot and answered as its media object', async () => {
    const big = `<!doctype html>${'x'.repeat(INLINE_MAX_BYTES)}`;
    const { lighthouse: stored } = (await answer('html', big)) as { lighthouse: Record<string, unknown> };
    assert.match(String(stored.url), new RegExp(`^${CDN}/[0-9a-f]{64}\\.html$`));
    assert.equal(stored.type, 'html');
    assert.equal(stored.size, Buffer.byteLength(big));
    assert.equal(stored.size_pretty, '3.15 MB');
    const back = await storage.get(String(stored.url).slice(CDN.length + 1));
    assert.equal(back?.contentType, 'text/html; charset=utf-8');
    assert.equal(back?.body.toString(), big);
  });

  test('a stored report takes the request\'s filename, with its own extension', async () => {
    const big = `a,b\n${'1,2\n'.repeat(INLINE_MAX_BYTES / 4)}`;
    const { lighthouse: stored } = (await answer('csv', big, undefined, 'audit')) as { lighthouse: Record<string, unknown> };
    assert.match(String(stored.url), new RegExp(`^${CDN}/[0-9a-f]{64}/audit\\.csv$`));
    const back = await storage.get(String(stored.url).slice(CDN.length + 1));
    assert.equal(back?.contentDisposition, 'inline; filename="audit.csv"');
  });
});
