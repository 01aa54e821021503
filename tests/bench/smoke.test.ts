/**
 * The benchmarks must not rot: `bench/run.ts` in smoke mode (tiny counts) runs every part in its own process and
 * each must report finite figures of the right shape. Performance targets are not asserted here, only that every
 * part measured what it says it measures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PartResult } from '../../bench/lib/part.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Metrics each part must report, as positive finite numbers. */
const EXPECTED: Record<string, string[]> = {
  accuracy: ['pages', 'glance.overall', 'metascraper.overall', 'open-graph-scraper.overall', 'glance.title'],
  throughput: ['glance.pagesPerSecond', 'metascraper.pagesPerSecond', 'open-graph-scraper.pagesPerSecond', 'glance.medianMs', 'glance/metascraper'],
  coldstart: ['bundleBytes', 'importBytes', 'tsx.importMs', 'bundle.importMs', 'bundle.importCpuMs', 'bundleSourceMaps.importMs', 'bundle.firstRequestMs', 'lambda.importMs', 'bundle.puppeteerModulesAfterControl'],
  screenshot: [
    'viewport.glanceMs', 'viewport.bareMs', 'viewport.ratio', 'overlay.c1.glanceMs', 'overlay.c1.bareMs', 'overlay.c4.glanceMs', 'fullPage.ratio',
    'c1.glancePerSecond', 'c2.glancePerSecond', 'c4.glancePerSecond', 'c4.barePerSecond', 'memory.rssMiB', 'memory.pssMiB',
    'cpu.glance.chromiumMs', 'cpu.glance.nodeMs', 'cpu.bare.chromiumMs', 'cpu.ratio',
  ],
  ping: ['singleMs', 'n10.reachable.directMs', 'n10.walk.directMs', 'n50.reachable.serviceMs', 'n50.walk.ratio', 'probe.png'],
  cache: ['glance.rps', 'ceiling.rps', 'glance.p99Ms', 'share', 'bodyBytes'],
  soak: ['minutes', 'requests', 'node.firstMiB', 'node.lastMiB', 'browser.peakMiB'],
  parse: ['depth.1000.ms', 'depth.10000.ms', 'size.0.5MB.ms', 'app.deepMs', 'app.tinyMs', 'app.maxLoopDelayMs'],
  rules: ['pages', 'extractMs', 'withDomMs', 'withRulesMs', 'markdownWorstMs', 'markdownWorstAtFastReferenceMs'],
  insights: ['pages', 'loadMs', 'page.medianMs', 'page.p95Ms'],
  adblock: ['buildMs', 'buildCpuMs', 'buildRssMiB', 'adOn', 'adOff', 'plainOn', 'plainOff'],
  palette: ['loadMs', 'jpeg12mp.p95Ms', 'jpeg12mp.cpuP95Ms', 'png.medianMs', 'webp.medianMs', 'gif.medianMs', 'avif.medianMs'],
  lighthouse: ['firstMs', 'medianMs', 'htmlMs', 'jsonBytes', 'htmlBytes'],
  stall: ['this.p:nth-last-child(1000000), 20 000 siblings.answerMs', 'this.p:nth-last-child(1000000), 20 000 siblings.healthWorstMs'],
  work: ['this.metadata.rps', 'this.ten rules + technologies.rps'],
};

describe('benchmarks (smoke)', { timeout: 300_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'glance-bench-smoke-'));
  let results: PartResult[] = [];
  let report = '';

  before(async () => {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'run.ts'), '--smoke'], {
        cwd: ROOT,
        env: { ...process.env, BENCH_OUT: out },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    assert.equal(code, 0, 'bench/run.ts --smoke failed (its output is above)');
    results = (JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { results: PartResult[] }).results;
    report = readFileSync(join(out, 'report.md'), 'utf8');
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  test('every part ran, in smoke mode', () => {
    assert.deepEqual(results.map((r) => r.part), Object.keys(EXPECTED));
    for (const result of results) assert.equal(result.smoke, true, result.part);
  });

  for (const [part, keys] of Object.entries(EXPECTED)) {
    test(`${part} reports its figures, tables and targets`, () => {
      const result = results.find((r) => r.part === part);
      assert.ok(result, `${part} missing`);
      for (const key of keys) {
        const value = result.metrics[key];
        assert.ok(typeof value === 'number' && Number.isFinite(value) && value > 0, `${part}: metric ${key} = ${value}`);
      }
      assert.ok(result.tables.length > 0 && result.tables.every((t) => t.rows.length > 0), `${part}: empty table`);
      for (const table of result.tables) {
        for (const row of table.rows) assert.equal(row.length, table.header.length, `${part}: "${table.title}" row width`);
      }
      assert.ok(result.targets.length > 0, `${part}: no targets`);
      for (const target of result.targets) assert.equal(typeof target.met, 'boolean');
      assert.ok(report.includes(`## ${part} (smoke)`), `${part}: not in the report`);
    });
  }

  test('accuracy ratios are shares and the corpus scoring saw both peers', () => {
    const { metrics } = results.find((r) => r.part === 'accuracy')!;
    for (const [key, value] of Object.entries(metrics)) if (!/(^|\.)pages$/.test(key)) assert.ok(value >= 0 && value <= 1, `${key} = ${value}`);
    assert.equal(metrics['pages'], 6);
    assert.ok(metrics['judged.pages']! > 0, 'the judged set was scored');
  });

  test('the cold-start watcher sees puppeteer and lighthouse imports when there are some, and the metadata path has none of lighthouse', () => {
    const { metrics } = results.find((r) => r.part === 'coldstart')!;
    for (const mode of ['tsx', 'bundle', 'bundleSourceMaps']) {
      assert.ok(metrics[`${mode}.puppeteerModulesAfterControl`]! > 0, mode);
      assert.ok(metrics[`${mode}.lighthouseModulesAfterControl`]! > 0, mode);
      assert.equal(metrics[`${mode}.lighthouseModules`], 0, `${mode}: the metadata path loaded lighthouse`);
    }
  });
});
