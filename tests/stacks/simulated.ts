/**
 * The staged bundle and the staged layers (Chromium, fonts) in a simulated Lambda (simulated-lambda.ts: read-only root, no
 * /dev/shm, non-root, 512 MB /tmp), storing assets and cached answers in an S3-protocol server, in both launch
 * modes (GLANCE_CHROMIUM_MODE), checked by the operator's `npm run smoke` too. Registered by deploy.test.ts once it has synthesised the app.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { TEST_BROWSER_ARGS } from '../helpers/chromium-args.ts';
import { startS3, type LocalS3 } from '../helpers/s3.ts';
import { scriptFailures, SCRIPTS_PAGE, SCRIPTS_QUERY } from '../../scripts/smoke/glyphs.ts';
import { html, startServer, type TestServer } from '../helpers/server.ts';
import { browsersUnder } from '../helpers/processes.ts';
import { smoke } from '../helpers/smoke.ts';
import { apiEvent, isolate } from './lambda.ts';
import { serveOverHttp, startSimulatedLambda, unavailable, type InvocationResult, type SimulatedLambda } from './simulated-lambda.ts';
import type { Synthesized } from './synth.ts';
import { resource } from './template.ts';

const BUCKET = 'simulated-assets';
const CACHE_BUCKET = 'simulated-cache';
const PAGE = `<!doctype html><html lang="en"><head><title>Simulated and well</title>
<meta name="description" content="A page read inside the simulated Lambda."></head>
<body style="margin:0;background:rgb(0,128,0)"><h1>Simulated and well</h1></body></html>`;

/** 2×2 opaque blue, for `embed.proxy`. */
const PICTURE = (() => {
  const image = new PNG({ width: 2, height: 2 });
  for (let at = 0; at < image.data.length; at += 4) image.data.set([0, 0, 255, 255], at);
  return PNG.sync.write(image);
})();

const body = (result: InvocationResult): any => {
  assert.equal(result.invocationError, undefined, result.invocationError);
  return JSON.parse(String(result.body));
};

export function describeSimulatedLambda(built: () => Synthesized): void {
  const reason = unavailable();
  describe('the bundle in a simulated Lambda, with the layer\'s Chromium', { skip: reason ?? false, timeout: 600_000 }, () => {
    let server: TestServer;
    let s3: LocalS3;
    const temporary: string[] = [];
    let task: string;
    let layers: string[];
    /** The stack's settings the simulation keeps as they are (the prebuilt adblock engine, where /var/task has it). */
    let stackEnv: Record<string, string>;

    before(async () => {
      const { template, assetDir } = built();
      const [, fn] = resource(template, 'AWS::Lambda::Function', 'ApiFunction');
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      stackEnv = { GLANCE_ADBLOCK_ENGINE: String(variables.GLANCE_ADBLOCK_ENGINE) };
      task = isolate(assetDir(fn.Properties.Code.S3Key), 'glance-sim-');
      temporary.push(dirname(task));
      // The function's own layers, in its order (other functions of the stack, such as CDK's deployment helper,
      // bring layers of their own).
      const all = template.findResources('AWS::Lambda::LayerVersion');
      layers = (fn.Properties.Layers as Array<{ Ref: string }>).map(({ Ref }) => assetDir(all[Ref]!.Properties.Content.S3Key));
      server = await startServer({
        '/article': html(PAGE),
        '/scripts': html(SCRIPTS_PAGE),
        '/pictured': html('<title>p</title><meta property="og:image" content="/picture.png">'),
        '/picture.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(PICTURE),
      });
      s3 = await startS3(BUCKET, CACHE_BUCKET);
    });
    after(async () => {
      await server?.close();
      await s3?.close();
      for (const path of temporary) rmSync(path, { recursive: true, force: true });
    });

    /** The bytes at a stored object's URL, from the asset bucket that stands in for the CDN. */
    async function stored(url: string): Promise<Buffer> {
      const response = await fetch(url);
      assert.equal(response.status, 200, url);
      return Buffer.from(await response.arrayBuffer());
    }

    /** The function's environment in the simulation, in `mode`, with `extra` settings. */
    const functionEnv = (mode: 'single' | 'multi', extra: Record<string, string> = {}): Record<string, string> => ({
      ...stackEnv,
      GLANCE_CHROMIUM_MODE: mode,
      GLANCE_ALLOW_HOSTS: '127.0.0.1',
      GLANCE_CHROMIUM_ARGS: JSON.stringify(TEST_BROWSER_ARGS),
      GLANCE_S3_BUCKET: BUCKET,
      GLANCE_CACHE_BUCKET: CACHE_BUCKET,
      GLANCE_S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      // The asset bucket itself stands in for the CDN in front of it.
      CDN_URL: `${s3.endpoint}/${BUCKET}`,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_TRACE_ENABLED: 'false',
      ...extra,
    });

    describe('GLANCE_BROWSER_AT_INIT', () => {
      for (const mode of ['single', 'multi'] as const) {
        test(`${mode}: Chromium runs before the first invocation, and the first screenshot does not wait for its launch`, async (t) => {
          const figures: string[] = [];
          const firstShot: Record<string, number> = {};
          for (const atInit of ['false', 'true']) {
            const lambda = await startSimulatedLambda({ task, layers, env: functionEnv(mode, { GLANCE_BROWSER_AT_INIT: atInit }) });
            try {
              let started = performance.now();
              // The runtime answers its first invocation once init (the handler's import) is over.
              const health = await lambda.invoke({ ...apiEvent(''), rawPath: '/health' });
              const initMs = Math.round(performance.now() - started);
              assert.equal(health.statusCode, 200, lambda.log());
              assert.equal(browsersUnder(lambda.pid).size, atInit === 'true' ? 1 : 0, 'Chromium started during init, and only then');
              started = performance.now();
              const page = `url=${encodeURIComponent(`${server.url}/article?at-init=${atInit}`)}&screenshot&meta=false&force=true`;
              const result = await lambda.invoke(apiEvent(page));
              firstShot[atInit] = Math.round(performance.now() - started);
              assert.equal(result.statusCode, 200, `${result.body}\n${lambda.log()}`);
              figures.push(`at init ${atInit}: init ${initMs} ms, first screenshot ${firstShot[atInit]} ms`);
            } finally {
              await lambda.close();
            }
          }
          t.diagnostic(`${mode}: ${figures.join('; ')} (shared CPU)`);
          assert.ok(firstShot.true! < firstShot.false!, figures.join('; '));
        });
      }
    });

    for (const mode of ['single', 'multi'] as const) {
      describe(`GLANCE_CHROMIUM_MODE=${mode}`, () => {
        let lambda: SimulatedLambda;
        before(async () => {
          lambda = await startSimulatedLambda({ task, layers, env: functionEnv(mode) });
        });
        after(() => lambda?.close());

        test('reads metadata, then captures a screenshot and a PDF, cold then warm', async (t) => {
          const page = `url=${encodeURIComponent(`${server.url}/article`)}`;
          const meta = body(await lambda.invoke(apiEvent(page)));
          assert.equal(meta.data?.title, 'Simulated and well', JSON.stringify(meta));
          const timings: number[] = [];
          for (const round of ['cold', 'warm']) {
            const started = performance.now();
            const result = await lambda.invoke(apiEvent(`${page}&screenshot&pdf&meta=false&force=true`));
            timings.push(Math.round(performance.now() - started));
            const answer = body(result);
            assert.equal(result.statusCode, 200, `${round}: ${result.body}\n${lambda.log()}`);
            const image = PNG.sync.read(await stored(answer.data.screenshot.url));
            assert.deepEqual([...image.data.subarray(0, 3)], [0, 128, 0], `${round}: the page's background`);
            assert.equal((await stored(answer.data.pdf.url)).subarray(0, 5).toString(), '%PDF-');
          }
          t.diagnostic(`${mode}: screenshot+pdf ${timings[0]} ms with Chromium's first launch (unpacking it included), ${timings[1]} ms warm (shared CPU)`);
        });

        test('draws CJK, Arabic, Hebrew, Devanagari, Thai and colour emoji with the fonts layer', async () => {
          const result = await lambda.invoke(apiEvent(`url=${encodeURIComponent(`${server.url}/scripts`)}&${SCRIPTS_QUERY}`));
          assert.equal(result.statusCode, 200, `${result.body}\n${lambda.log()}`);
          const image = PNG.sync.read(await stored(body(result).data.screenshot.url));
          assert.deepEqual(scriptFailures(image), []);
        });

        test('embed.proxy answers the image itself, base64 in the invocation, bytes behind the API Gateway stand-in', async () => {
          const query = `url=${encodeURIComponent(`${server.url}/pictured`)}&embed=image.url&embed.proxy`;
          const result = await lambda.invoke(apiEvent(query));
          assert.equal(result.statusCode, 200, `${result.body}\n${lambda.log()}`);
          assert.equal(result.isBase64Encoded, true);
          assert.ok(Buffer.from(String(result.body), 'base64').equals(PICTURE));
          const api = await serveOverHttp(lambda, apiEvent);
          try {
            const response = await fetch(`${api.url}/?${query}`);
            assert.equal(response.headers.get('content-type'), 'image/png');
            assert.equal(response.headers.get('access-control-allow-origin'), '*');
            assert.ok(Buffer.from(await response.arrayBuffer()).equals(PICTURE));
          } finally {
            await api.close();
          }
        });

        test('passes `npm run smoke` behind an HTTP stand-in for API Gateway, the asset bucket as its CDN', async (t) => {
          const api = await serveOverHttp(lambda, apiEvent);
          try {
            const { code, out } = await smoke(api.url, '--target', `${server.url}/article`);
            t.diagnostic(out);
            assert.equal(code, 0, `${out}\n${lambda.log()}`);
          } finally {
            await api.close();
          }
        });
      });
    }
  });
}
