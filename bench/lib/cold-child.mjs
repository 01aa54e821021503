/**
 * One cold start, in a fresh process (plain JavaScript, so the bundle runs without tsx): import the handler
 * module, answer one metadata request for BENCH_TARGET, print timings as one JSON line.
 *   node [--import tsx] bench/lib/cold-child.mjs <handler module>
 * With BENCH_WATCH=1 every module resolution is recorded (module.registerHooks, in-thread, so it sees tsx's and
 * node's imports alike), puppeteer's and Lighthouse's are counted, and then puppeteer-core and lighthouse are
 * imported on purpose as controls: a watcher that misses those imports would miss the real thing too. Timed runs go without the watcher.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const booted = performance.now();
const watch = process.env.BENCH_WATCH === '1';
const resolved = [];
if (watch) {
  registerHooks({
    resolve(specifier, context, next) {
      const result = next(specifier, context);
      resolved.push(result.url);
      return result;
    },
  });
}
const puppeteerModules = () => resolved.filter((url) => /[/\\]puppeteer(-core)?[/\\]/.test(url)).length;
/** Lighthouse's package (matched under node_modules: the checkout's own folder may be named lighthouse too). */
const lighthouseModules = () => resolved.filter((url) => /node_modules[/\\]lighthouse[/\\]/.test(url)).length;

const started = performance.now();
const cpu = process.cpuUsage();
const { handler } = await import(pathToFileURL(process.argv[2]).href);
const imported = performance.now();
const { user, system } = process.cpuUsage(cpu);

const query = `url=${encodeURIComponent(process.env.BENCH_TARGET)}`;
const now = Date.now();
const event = {
  version: '2.0',
  routeKey: '$default',
  rawPath: '/',
  rawQueryString: query,
  headers: { host: 'cold.test', 'user-agent': 'glance-bench' },
  queryStringParameters: { url: process.env.BENCH_TARGET },
  requestContext: {
    accountId: 'bench', apiId: 'bench', domainName: 'cold.test', domainPrefix: 'cold', requestId: 'cold-start',
    routeKey: '$default', stage: '$default', time: new Date(now).toUTCString(), timeEpoch: now,
    http: { method: 'GET', path: '/', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'glance-bench' },
  },
  isBase64Encoded: false,
};
const context = {
  awsRequestId: 'cold-start', functionName: 'glance-bench', functionVersion: '$LATEST', memoryLimitInMB: '2048',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:glance-bench', logGroupName: 'bench',
  logStreamName: 'bench', callbackWaitsForEmptyEventLoop: false, getRemainingTimeInMillis: () => 30_000,
};
const result = await handler(event, context);
const answered = performance.now();
const body = JSON.parse(result.body);

const report = {
  bootMs: booted,
  importMs: imported - started,
  /** The process's CPU time over the import (all its threads): less swayed than wall time by a busy machine. */
  importCpuMs: (user + system) / 1000,
  firstRequestMs: answered - imported,
  /** From the process's own start (performance.timeOrigin) to the first answer. */
  totalMs: answered,
  statusCode: result.statusCode,
  title: body.data?.title ?? null,
  imagePinged: typeof body.data?.image?.size === 'number',
};
if (watch) {
  report.modulesResolved = resolved.length;
  report.puppeteerModules = puppeteerModules();
  report.lighthouseModules = lighthouseModules();
  await import('puppeteer-core');
  report.puppeteerModulesAfterControl = puppeteerModules();
  await import('lighthouse');
  report.lighthouseModulesAfterControl = lighthouseModules();
}
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
