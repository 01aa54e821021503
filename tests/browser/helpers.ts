/**
 * Shared by the browser tests: one renderer per test file with the real Chromium, options built by the real
 * query parser, and readers for the stored bytes (PNG pixels, JPEG size, PDF page boxes).
 */
import { execFileSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { Budget } from '../../lib/time/budget.ts';
import { DEFAULT_USER_AGENT, loadConfig } from '../../lib/config.ts';
import type { Resolver } from '../../lib/guard/lookup.ts';
import { createRenderer, type BrowserEvents, type RenderResult, type Renderer } from '../../lib/browser/index.ts';
import type { VettedUrl } from '../../lib/guard/policy.ts';
import { renderRequest, usualPageSetup, type RenderWants } from '../../lib/pipeline/render-request.ts';
import type { PageSetup } from '../../lib/browser/page.ts';
import { parseQuery } from '../../lib/query/index.ts';
import { WorkPool } from '../../lib/work/pool.ts';
import { withSharedAdblockEngine } from '../helpers/adblock-engine.ts';
import { html, type Route } from '../helpers/server.ts';

export { TEST_BROWSER_ARGS as TEST_ARGS } from '../helpers/chromium-args.ts';
import { TEST_BROWSER_ARGS as TEST_ARGS } from '../helpers/chromium-args.ts';

/** A renderer on the real Chromium, with the tests' shared prebuilt adblock engine unless `env` chooses its own. */
export async function testRenderer(allowHosts = '127.0.0.1', resolver?: Resolver, env: Record<string, string> = {}, events?: BrowserEvents): Promise<Renderer> {
  const config = loadConfig(await withSharedAdblockEngine({ GLANCE_ALLOW_HOSTS: allowHosts, ...env }));
  const usualSetup = () => usualPageSetup(config.userAgent);
  return createRenderer({ config, work: new WorkPool({ size: 1 }), resolver, extraArgs: TEST_ARGS, events, usualSetup });
}

/** A plain page for tests that call withPage() directly: small desktop viewport, no emulation. */
export const PLAIN_SETUP: PageSetup = {
  viewport: { width: 200, height: 100, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: true },
  userAgent: 'test',
  colorScheme: 'no-preference',
  mediaType: 'screen',
  javascript: true,
  reducedMotion: false,
  headers: {},
};

/** Chromium browser processes this test process started (puppeteer spawns the binary itself). */
export function chromiumChildren(): Set<number> {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' }).trim().split('\n');
  const found = new Set<number>();
  for (const line of table) {
    const [pid, ppid, ...name] = line.trim().split(/\s+/);
    if (Number(ppid) === process.pid && /chrom|headless/i.test(name.join(' '))) found.add(Number(pid));
  }
  return found;
}

/**
 * Renders `url` with the options of `query` (the API's query string, without `url`), the request built as the render
 * step builds it; the captures are those `query` asks for, and `capture`'s.
 */
export async function render(
  renderer: Renderer,
  url: string,
  query = '',
  { timeout = 15_000, capture = {} }: { timeout?: number; capture?: Partial<RenderWants> } = {},
): Promise<RenderResult> {
  const options = parseQuery(`url=${encodeURIComponent(url)}${query ? `&${query}` : ''}`, {});
  const wants: RenderWants = { screenshot: options.screenshot !== false, pdf: options.pdf !== false, html: false, evaluate: [], ...capture };
  // Not vetted here: the browser's own guard (its proxy) is what these tests meet.
  const target = new URL(url) as VettedUrl;
  return renderer.render(await renderRequest({ url: target, options, wants, userAgent: DEFAULT_USER_AGENT, budget: new Budget(timeout) }));
}

export const png = (body: Buffer): PNG => PNG.sync.read(body);

/** [r, g, b, a] at (x, y). */
export function pixel(image: PNG, x: number, y: number): [number, number, number, number] {
  const at = (image.width * y + x) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!, image.data[at + 3]!];
}

/**
 * Width and height of a whole PNG, read independently of the code under test: the header's size, checked against
 * the image data inflated (one filter byte and the pixels per row). pngjs's full decode of a capture at the size
 * bounds takes seconds; this takes a fraction of one.
 */
export function pngDimensions(body: Buffer): { width: number; height: number } {
  if (!body.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels: number | undefined;
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= body.length; ) {
    const length = body.readUInt32BE(at);
    const type = body.toString('latin1', at + 4, at + 8);
    const chunk = body.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      [width, height] = [chunk.readUInt32BE(0), chunk.readUInt32BE(4)];
      // 8 bits per sample, not interlaced: what Chromium writes. Grey, RGB, grey + alpha, RGBA.
      channels = chunk[8] === 8 && chunk[12] === 0 ? PNG_CHANNELS[chunk[9]!] : undefined;
    } else if (type === 'IDAT') data.push(chunk);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (channels === undefined) throw new Error('not an 8-bit, non-interlaced PNG');
  const inflated = inflateSync(Buffer.concat(data)).length;
  if (inflated !== height * (1 + width * channels)) throw new Error(`${width}×${height} in the header, ${inflated} bytes of rows`);
  return { width, height };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** Width and height from the first JPEG start-of-frame marker (read independently of the code under test). */
export function jpegDimensions(body: Buffer): { width: number; height: number } {
  for (let offset = 2; offset < body.length; ) {
    const marker = body[offset + 1]!;
    if ([0xc0, 0xc1, 0xc2].includes(marker)) {
      return { height: body.readUInt16BE(offset + 5), width: body.readUInt16BE(offset + 7) };
    }
    offset += 2 + body.readUInt16BE(offset + 2);
  }
  throw new Error('no SOF marker');
}

/** Every page's MediaBox [x0, y0, x1, y1] in points (Chromium writes them uncompressed). */
export function mediaBoxes(pdf: Buffer): number[][] {
  return [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*([\d.\s-]+)\]/g)].map((match) =>
    match[1]!.trim().split(/\s+/).map(Number),
  );
}

/** The GlanceError code a promise rejects with (fails the test if it resolves). */
export async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return (error as { code?: string }).code ?? `uncoded: ${(error as Error).message}`;
  }
  throw new Error('expected a rejection');
}

/**
 * `/store` leaves a cookie (set by the server and by script) and a localStorage entry; `/read` shows what a page
 * finds of them (`none` when nothing): for tests that one request's state never reaches the next.
 */
export function stateRoutes(page: string): Record<string, Route> {
  return {
    '/store': html(`${page}<script>document.cookie = 'seen=yes; max-age=3600'; localStorage.setItem('seen', 'yes')</script>`, {
      'set-cookie': 'served=yes; Max-Age=3600',
    }),
    '/read': (req, res) => {
      const cookie = req.headers.cookie ?? 'none';
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<title>read</title><p id="cookie">${cookie}</p><p id="storage"></p><script>document.getElementById('storage').textContent = localStorage.getItem('seen') ?? 'none'</script>`,
      );
    },
  };
}
