/**
 * The tools an agent calls: each is a query of the JSON API, run through the API's own path (the address guard,
 * the result cache, the budget, the access log), and its answer turned into a tool result. A page's failure is the
 * tool's error (`isError`, Glance's code and message), never the transport's.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { GlanceError, type ErrorCode } from '../errors.ts';
import { isFatal } from '../http/fault.ts';
import { TIMEOUT } from '../query/options.ts';
import type { Storage } from '../storage/index.ts';
import { Budget } from '../time/budget.ts';
import { boundedImage } from './image.ts';
import { cutMarkdown } from './markdown-cut.ts';
import { queryOf } from './query.ts';
import { parameterProperties, type JsonSchema } from './schemas.ts';

/** A JSON API answer's payload: `data` on success, `code` and `message` on failure. */
export interface Payload {
  readonly status: 'success' | 'fail' | 'error';
  readonly data?: Record<string, unknown>;
  readonly code?: string;
  readonly message?: string;
}

export interface ToolDeps {
  /** The JSON API's answer to a query, through its own path (the caller's key was checked once, for the request). */
  ask(rawQueryString: string): Promise<Payload>;
  readonly storage: Storage;
  readonly cdnUrl: string;
  /** The `screenshot` tool's image bound (GLANCE_MCP_IMAGE_MAX_BYTES). */
  readonly imageMaxBytes: number;
  /** Epoch ms by which the request must be answered (a Lambda invocation's), if the transport has one. */
  readonly deadline?: number;
}

export interface GlanceTool extends Tool {
  run(args: Record<string, unknown>, deps: ToolDeps): Promise<CallToolResult>;
}

export const MARKDOWN_DEFAULT_CHARS = 100_000;
export const MARKDOWN_MAX_CHARS = 1_000_000;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

/** A read-only tool over the web: its schema the parameters it offers (lib/mcp/schemas.ts) and its `own`. */
const tool = (name: string, title: string, description: string, run: GlanceTool['run'], own: Record<string, JsonSchema> = {}): GlanceTool => ({
  name,
  title,
  description,
  inputSchema: { type: 'object', properties: { ...parameterProperties(name), ...own }, required: ['url'], additionalProperties: false },
  annotations: { title, ...READ_ONLY },
  run,
});

/** A failure as the API answered it: an EFATAL among them was logged with its cause where it happened. */
export class AnsweredError extends GlanceError {}

/** The payload's data, or the failure it reports as an AnsweredError (its code kept as the API answered it). */
async function dataOf(deps: ToolDeps, query: string): Promise<Record<string, unknown>> {
  const payload = await deps.ask(query);
  if (payload.status === 'success' && payload.data) return payload.data;
  throw new AnsweredError((payload.code ?? 'EFATAL') as ErrorCode, payload.message ?? 'The page could not be read.');
}

const text = (value: string) => ({ type: 'text' as const, text: value });

const extract = tool(
  'extract',
  'Extract page data',
  "Reads a web page and answers Glance's (Microlink's) data object: title, description, author, publisher, date, lang, " +
    'url, image, logo, audio, video, plus what the options ask for: custom `data` rules (CSS selectors → values), ' +
    '`palette` colours, an `iframe` embed, `insights` (technologies, Lighthouse), `screenshot`/`pdf` addresses. ' +
    'Options are Microlink API parameters, nested as @microlink/mql writes them.',
  async (args, deps) => {
    const data = await dataOf(deps, queryOf(args));
    return { content: [text(JSON.stringify(data))], structuredContent: data };
  },
);

const markdown = tool(
  'markdown',
  'Read a page as Markdown',
  'Reads a web page as Markdown (headings, lists, tables, code, absolute links), without navigation chrome, ' +
    'scripts or styles; `selector` reads only the first element it matches. Past `maxCharacters` the Markdown is cut ' +
    'at a block boundary and says so.',
  async ({ selector, maxCharacters = MARKDOWN_DEFAULT_CHARS, ...args }, deps) => {
    const rule = { 'data.markdown.attr': 'markdown', ...(typeof selector === 'string' ? { 'data.markdown.selector': selector } : {}) };
    const data = await dataOf(deps, queryOf(args, { meta: 'false', ...rule }));
    const cut = cutMarkdown(typeof data.markdown === 'string' ? data.markdown : '', maxCharacters as number);
    const summary = { url: args.url, characters: cut.total, truncated: cut.truncated, kept: cut.kept };
    return { content: [text(cut.text)], structuredContent: summary };
  },
  {
    selector: { type: 'string', minLength: 1, description: 'A CSS selector: the Markdown of the first element it matches (`article`, `main`), instead of the whole page.' },
    maxCharacters: {
      type: 'integer',
      minimum: 1000,
      maximum: MARKDOWN_MAX_CHARS,
      default: MARKDOWN_DEFAULT_CHARS,
      description: 'Characters of Markdown answered at most; past them it is cut at a block boundary with a marker.',
    },
  },
);

interface Capture {
  readonly url: string;
  readonly type?: string;
  readonly size?: number;
  readonly width?: number;
  readonly height?: number;
}

/** The stored capture's bytes, read back from the storage its address names. */
async function storedBytes(capture: Capture, deps: ToolDeps, budget: Budget): Promise<Buffer> {
  const prefix = `${deps.cdnUrl}/`;
  const key = capture.url.startsWith(prefix) ? capture.url.slice(prefix.length) : undefined;
  const stored = key === undefined ? undefined : await budget.race(deps.storage.get(key), () => undefined);
  if (!stored) throw new GlanceError('EFATAL', 'The screenshot was taken, but its stored file could not be read back.');
  return stored.body;
}

const screenshot = tool(
  'screenshot',
  'Screenshot a page',
  'Takes a screenshot of a web page (the viewport, the full page, or one element) in a real browser and answers the ' +
    'image, its CDN address and its dimensions. An image past the bound is sent as a smaller JPEG rendition; the ' +
    'address always serves the full capture.',
  async (args, deps) => {
    const started = Date.now();
    const data = await dataOf(deps, queryOf(args, { screenshot: 'true', meta: 'false' }));
    const capture = data.screenshot as Capture | undefined;
    if (!capture?.url) throw new GlanceError('EFATAL', 'The page answered no screenshot.');
    // The rendition is on the request's clock: never past the longest timeout, nor the transport's deadline.
    const budget = Budget.until(Math.min(started + TIMEOUT.max, deps.deadline ?? Infinity));
    const image = await boundedImage(await storedBytes(capture, deps, budget), deps.imageMaxBytes, budget);
    const described = {
      url: capture.url,
      type: capture.type,
      width: capture.width,
      height: capture.height,
      size: capture.size,
      image: { mimeType: image.mimeType, width: image.width, height: image.height, bytes: image.bytes.length, resized: image.resized },
    };
    return {
      content: [{ type: 'image', data: image.bytes.toString('base64'), mimeType: image.mimeType }, text(JSON.stringify(described))],
      structuredContent: described,
    };
  },
);

export const TOOLS: readonly GlanceTool[] = [extract, markdown, screenshot];

/** A failure as the tool's result: the agent reads Glance's code and message, and may act on them. */
export function toolError(error: unknown): CallToolResult {
  // A failure of ours is logged with its cause (server.ts); the agent is told only that it happened.
  const [code, message] = isFatal(error) ? ['EFATAL', 'An unexpected error occurred. It was logged.'] : [(error as GlanceError).code, (error as GlanceError).message];
  return { isError: true, content: [text(`${code}: ${message}`)], structuredContent: { code, message } };
}
