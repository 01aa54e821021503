/**
 * The post-deploy checks of `npm run smoke`: each asks the deployed API one thing an operator relies on and says
 * whether it held. They speak plain HTTP with Node's fetch and know nothing of Glance's code, so they check a
 * deployment exactly as a caller sees it (through CloudFront, API Gateway or the local service alike). A check
 * passes or fails; one that finds something an operator should know but that is not broken warns (an open API,
 * alarms that notify nobody), and one that does not apply to what it runs against (the edge cache of the local
 * service) is skipped. Only failures fail the run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { scriptFailures, SCRIPTS_PAGE, SCRIPTS_QUERY } from './glyphs.ts';

export interface SmokeOptions {
  /** The API's base address: the stack's `ApiEndpoint` output, or the local service. */
  readonly endpoint: string;
  /** A public page the deployment may fetch and render. */
  readonly target: string;
  /** Sent as `x-api-key` when the API requires keys. */
  readonly apiKey: string | undefined;
  /** Longest any one answer may take: the API's 28 s budget plus the way there. */
  readonly timeoutMs: number;
  /** SST's outputs file (`.sst/outputs.json` after `npx sst deploy`), where the stack says where its alarms go. */
  readonly outputsFile: string;
}

export type Outcome = 'PASS' | 'FAIL' | 'WARN' | 'SKIP';

export interface CheckResult {
  readonly name: string;
  readonly outcome: Outcome;
  /** Wall time of the check's requests, in ms. */
  readonly ms: number;
  /** What was seen: the figures on success, what went wrong on failure. */
  readonly detail: string;
}

class CheckFailed extends Error {}
/** Not broken, but the operator should know. */
class CheckWarning extends Error {}
/** The check does not apply to this endpoint. */
class CheckSkipped extends Error {}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  readonly ms: number;
}

/** A unique marker per run: unknown parameters are ignored by the API but keep the edge cache from answering. */
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

function client(options: SmokeOptions) {
  const base = trimSlash(options.endpoint);
  const key: Record<string, string> = options.apiKey ? { 'x-api-key': options.apiKey } : {};
  const get = async (url: string, headers: Record<string, string> = key): Promise<Answer> => {
    const started = performance.now();
    const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
    const body = await response.text();
    return { status: response.status, headers: response.headers, body, ms: Math.round(performance.now() - started) };
  };
  return {
    /** `GET <endpoint>/?url=<target>&<query>&smoke=<run>` */
    api: (target: string, query = '') => get(`${base}/?url=${encodeURIComponent(target)}${query ? `&${query}` : ''}&smoke=${RUN}`),
    /** The same, with these headers instead of the API key. */
    withHeaders: (target: string, headers: Record<string, string>) => get(`${base}/?url=${encodeURIComponent(target)}&smoke=${RUN}`, headers),
    /** An asset on the CDN: no API key, as a browser showing the screenshot would fetch it. */
    asset: async (url: string): Promise<Answer & { bytes: Buffer }> => {
      const started = performance.now();
      const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs) });
      const bytes = Buffer.from(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, body: '', bytes, ms: Math.round(performance.now() - started) };
    },
  };
}

function json(answer: Answer): any {
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new CheckFailed(`HTTP ${answer.status}, not JSON: ${answer.body.slice(0, 120)}`);
  }
}

/** The API's answer must be a JSend success; otherwise its code and message say why. */
function success(answer: Answer): any {
  const payload = json(answer);
  expect(answer.status === 200 && payload.status === 'success', `HTTP ${answer.status} ${payload.code ?? ''} ${payload.message ?? ''}`.trim());
  return payload;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The edge (CloudFront's `x-cache`) or Glance's own cache (`x-cache-status`) answered from a stored copy. */
const fromCache = (headers: Headers): boolean =>
  /^hit/i.test(headers.get('x-cache') ?? '') || headers.get('x-cache-status') === 'HIT';

type Api = ReturnType<typeof client>;
type Check = (api: Api, options: SmokeOptions, state: State) => Promise<string>;

/** A screenshot's PNG, from the URL the answer names. */
async function screenshotOf(api: Api, answer: Answer): Promise<PNG> {
  const { data } = success(answer);
  expect(typeof data.screenshot?.url === 'string', 'no data.screenshot.url');
  const asset = await api.asset(data.screenshot.url);
  expect(asset.status === 200 && asset.bytes.subarray(0, 8).equals(PNG_SIGNATURE), `HTTP ${asset.status}, not a PNG, at ${data.screenshot.url}`);
  return PNG.sync.read(asset.bytes);
}

/** Replaces the target's document by the glyph grid before the capture (the `scripts` parameter). */
const GLYPHS_SCRIPT = `document.open();document.write(${JSON.stringify(SCRIPTS_PAGE)});document.close();`;
const SCREENSHOTS_AT_ONCE = 4;
const PDF_SIGNATURE = '%PDF-';

interface Outputs {
  readonly ApiEndpoint?: string;
  readonly AlarmTarget?: string;
}

/** The outputs of the stack whose ApiEndpoint is this endpoint, from SST's outputs file, if there is one. */
function stackOutputs({ outputsFile, endpoint }: SmokeOptions): Outputs | undefined {
  if (!existsSync(outputsFile)) return undefined;
  const stacks = JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, Outputs>;
  return Object.values(stacks).find((outputs) => outputs.ApiEndpoint && trimSlash(outputs.ApiEndpoint) === trimSlash(endpoint));
}

/** What one check learns and a later one uses. */
interface State {
  screenshotUrl?: string;
}

const CHECKS: ReadonlyArray<readonly [string, Check]> = [
  ['metadata', async (api, { target }) => {
    const answer = await api.api(target);
    const { data } = success(answer);
    expect(typeof data.title === 'string' && data.title.length > 0, `no title in ${JSON.stringify(data).slice(0, 120)}`);
    expect(answer.headers.get('x-request-id'), 'no x-request-id header');
    return `"${data.title}" (${answer.headers.get('x-fetch-mode') ?? '?'})`;
  }],
  ['cache headers', async (api, { target }) => {
    // The metadata check asked the same question: this answer must come from a cache, and say for how long.
    const answer = await api.api(target);
    success(answer);
    const control = answer.headers.get('cache-control') ?? '';
    const maxAge = /s-maxage=(\d+)/.exec(control)?.[1];
    expect(maxAge && Number(maxAge) > 0, `cache-control is "${control}", no s-maxage`);
    expect(answer.headers.get('x-cache-status'), 'no x-cache-status header');
    expect(fromCache(answer.headers), `a repeat was not served from a cache (x-cache-status ${answer.headers.get('x-cache-status')}, x-cache ${answer.headers.get('x-cache') ?? 'none'})`);
    const edge = answer.headers.get('x-cache');
    return `s-maxage=${maxAge}, x-cache-status ${answer.headers.get('x-cache-status')}${edge ? `, x-cache ${edge}` : ''}`;
  }],
  ['screenshot', async (api, { target }, state) => {
    const { data } = success(await api.api(target, 'screenshot&meta=false'));
    const shot = data.screenshot;
    expect(shot && typeof shot.url === 'string', 'no data.screenshot.url');
    expect(shot.type === 'png' && shot.width > 0 && shot.height > 0, `unexpected screenshot ${JSON.stringify(shot)}`);
    state.screenshotUrl = shot.url;
    return `${shot.width}×${shot.height}, ${shot.size_pretty}`;
  }],
  ['screenshot on the CDN', async (api, _options, state) => {
    expect(state.screenshotUrl, 'no screenshot to fetch (the screenshot check failed)');
    const asset = await api.asset(state.screenshotUrl);
    expect(asset.status === 200, `HTTP ${asset.status} for ${state.screenshotUrl}`);
    expect(asset.bytes.subarray(0, 8).equals(PNG_SIGNATURE), `not a PNG (${asset.headers.get('content-type')})`);
    expect(/immutable/.test(asset.headers.get('cache-control') ?? ''), `cache-control is "${asset.headers.get('cache-control')}"`);
    return `${new URL(state.screenshotUrl).host}, ${asset.bytes.length} bytes, ${asset.ms} ms`;
  }],
  ['embed 302', async (api, { target }, state) => {
    const answer = await api.api(target, 'screenshot&meta=false&embed=screenshot.url');
    expect(answer.status === 302, `HTTP ${answer.status}, not 302: ${answer.body.slice(0, 120)}`);
    const location = answer.headers.get('location');
    expect(location && /^https?:\/\//.test(location), `location is "${location}"`);
    // A second capture of a changing page is another object, so only the CDN and the kind are compared.
    const cdn = state.screenshotUrl && new URL(state.screenshotUrl).origin;
    expect(!cdn || new URL(location).origin === cdn, `location ${location} is not on the CDN ${cdn}`);
    expect(/\.png$/.test(new URL(location).pathname), `location ${location} is not a PNG`);
    return `→ ${location}`;
  }],
  ['SSRF refusal', async (api) => {
    // The cloud metadata address: every deployment must refuse it, whatever else it is allowed to reach.
    const answer = await api.api('http://169.254.169.254/latest/meta-data/');
    const payload = json(answer);
    expect(answer.status === 403 && payload.code === 'EFORBIDDENURL', `HTTP ${answer.status} ${payload.code ?? payload.status}`);
    return `403 ${payload.code}`;
  }],
  ['timings', async (api, { target }) => {
    // force=true regenerates the answer, so its spans are those of real work rather than of a cache read.
    const answer = await api.api(target, 'force=true');
    success(answer);
    const timing = answer.headers.get('server-timing') ?? '';
    const span = (name: string) => new RegExp(`(?:^|,\\s*)${name};dur=([\\d.]+)`).exec(timing)?.[1];
    expect(span('total'), `server-timing is "${timing}", no total`);
    expect(answer.headers.get('x-response-time'), 'no x-response-time header');
    const spans = ['fetch', 'extract', 'ping'].filter(span).map((name) => `${name} ${Math.round(Number(span(name)))}`);
    return `total ${Math.round(Number(span('total')))} ms (${spans.join(', ') || 'no spans'}), round trip ${answer.ms} ms`;
  }],
  ['glyphs', async (api, { target }) => {
    // Two characters of each script side by side: a missing font draws both as the same box (scripts/smoke/glyphs.ts).
    const image = await screenshotOf(api, await api.api(target, `${SCRIPTS_QUERY}&scripts=${encodeURIComponent(GLYPHS_SCRIPT)}`));
    const failures = scriptFailures(image);
    expect(failures.length === 0, failures.join('; '));
    return 'CJK, Arabic, Hebrew, Devanagari, Thai and colour emoji drawn';
  }],
  ['pdf', async (api, { target }) => {
    const { data } = success(await api.api(target, 'pdf&meta=false'));
    expect(typeof data.pdf?.url === 'string', 'no data.pdf.url');
    const asset = await api.asset(data.pdf.url);
    expect(asset.status === 200 && asset.bytes.subarray(0, PDF_SIGNATURE.length).toString('latin1') === PDF_SIGNATURE, `HTTP ${asset.status}, not a PDF, at ${data.pdf.url}`);
    return `${asset.bytes.length} bytes`;
  }],
  ['keys enforced', async (api, { target, apiKey }) => {
    const without = await api.withHeaders(target, {});
    const payload = json(without);
    if (!apiKey && without.status === 200 && payload.status === 'success') throw new CheckWarning('the API is open: anyone who finds it can spend (GLANCE_OPEN_API)');
    expect(without.status === 401 && payload.code === 'EAUTH', `without a key: HTTP ${without.status} ${payload.code ?? payload.status}`);
    if (!apiKey) return 'without a key: 401 EAUTH (give --api-key to run the other checks)';
    const wrong = await api.withHeaders(target, { 'x-api-key': `${apiKey}-not` });
    expect(wrong.status === 401 && json(wrong).code === 'EAUTH', `with a wrong key: HTTP ${wrong.status}`);
    return 'without a key and with a wrong one: 401 EAUTH';
  }],
  ['edge cache hit', async (api, { target }) => {
    // The metadata check asked this first; an edge server that missed then keeps it now.
    for (let attempt = 1; ; attempt++) {
      const answer = await api.api(target);
      success(answer);
      const edge = answer.headers.get('x-cache');
      if (edge === null) throw new CheckSkipped('no CloudFront in front (no x-cache header)');
      if (/^(hit|refreshhit)/i.test(edge)) return `${edge} (request ${attempt})`;
      expect(attempt < 3, `x-cache is "${edge}" on ${attempt} repeats`);
    }
  }],
  ['proxied image', async (api, { target }) => {
    // The target's own image (its og:image or the like), its bytes answered by the API itself.
    const answer = await api.api(target, 'embed=image.url&embed.proxy=true');
    if (answer.status === 400 && /EINVALEMBED/.test(answer.body)) throw new CheckSkipped('the target names no image: give --target a page that has one');
    expect(answer.status === 200, `HTTP ${answer.status}: ${answer.body.slice(0, 120)}`);
    const type = answer.headers.get('content-type') ?? '';
    expect(type.startsWith('image/'), `content-type ${type}`);
    return `${type}, ${answer.headers.get('content-length') ?? '?'} bytes`;
  }],
  ['screenshots at once', async (api, { target }) => {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: SCREENSHOTS_AT_ONCE }, (_, index) => api.api(target, `screenshot&meta=false&smokeshot=${index}`)));
    const shots = answers.map((answer) => success(answer).data.screenshot);
    expect(shots.every((shot) => typeof shot?.url === 'string'), 'not every answer has a screenshot');
    return `${SCREENSHOTS_AT_ONCE} in ${Math.round(performance.now() - started)} ms`;
  }],
  ['alarms', async (_api, options) => {
    const outputs = stackOutputs(options);
    if (!outputs) throw new CheckSkipped(`no stack with this ApiEndpoint in ${options.outputsFile}`);
    if (!outputs.AlarmTarget) throw new CheckSkipped('the stack has no AlarmTarget output (deployed before it existed)');
    if (/^nobody/.test(outputs.AlarmTarget)) throw new CheckWarning(`alarms notify ${outputs.AlarmTarget}`);
    return `alarms notify ${outputs.AlarmTarget}`;
  }],
];

/** Runs every check in order (later ones reuse what earlier ones made); one failing never stops the others. */
export async function runChecks(options: SmokeOptions): Promise<CheckResult[]> {
  const api = client(options);
  const state: State = {};
  const results: CheckResult[] = [];
  for (const [name, check] of CHECKS) {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const detail = await check(api, options, state);
      results.push({ name, outcome: 'PASS', ms: ms(), detail });
    } catch (error) {
      const outcome: Outcome = error instanceof CheckWarning ? 'WARN' : error instanceof CheckSkipped ? 'SKIP' : 'FAIL';
      const detail = outcome !== 'FAIL' || error instanceof CheckFailed ? (error as Error).message : `${(error as Error).name}: ${(error as Error).message}`;
      results.push({ name, outcome, ms: ms(), detail });
    }
  }
  return results;
}
