/**
 * The query string (API Gateway's `rawQueryString`, or the local service's equivalent) plus the request
 * headers → one frozen, validated Options object (docs/CONTRACT.md §1, §2), or a GlanceError naming the parameter.
 */
import { GlanceError, invalidParam } from '../errors.ts';
import { readData } from './data-rules.ts';
import { readIframe, readPing } from './enrich.ts';
import { readInsights } from './insights.ts';
import { readHeaders } from './target-headers.ts';
import { readMeta } from './meta.ts';
import { refuseNotOffered } from './not-offered.ts';
import type { Options } from './options.ts';
import { readOutput } from './output.ts';
import { readPage } from './page.ts';
import { readPdf } from './pdf.ts';
import { child, flagOf, text } from './read.ts';
import { readScreenshot } from './screenshot.ts';
import { safeFileName } from '../storage/filename.ts';
import { readTiming } from './timing.ts';
import { buildTree, type QueryNode } from './tree.ts';

export * from './options.ts';

function readUrl(root: QueryNode): string {
  const found = child(root, 'url');
  const url = found?.node.value?.trim() ?? '';
  if (url === '') {
    throw new GlanceError(
      'EINVALURL',
      'The `url` parameter is required: give the address of the page, such as ?url=https://example.com.',
      { data: { url: 'required' } },
    );
  }
  return url;
}

/** Microlink lets its own servers write files to a given path; a public endpoint must never. */
function refuseServerPaths(root: QueryNode): void {
  const owners: Array<[QueryNode | undefined, string]> = [
    [root, ''],
    [child(root, 'screenshot')?.node, 'screenshot'],
    [child(root, 'pdf')?.node, 'pdf'],
  ];
  for (const [node, name] of owners) {
    const path = node && child(node, 'path', name);
    if (path) throw invalidParam(path.name, 'not accepted: files are never written to a path given by the caller');
  }
}

const MAX_CACHE_KEY = 256;

function readCacheKey(root: QueryNode): string | undefined {
  const found = child(root, 'cacheKey');
  if (!found) return undefined;
  const value = text(found, `a label of 1 to ${MAX_CACHE_KEY} characters`);
  if (value.length > MAX_CACHE_KEY) throw invalidParam(found.name, `a label of 1 to ${MAX_CACHE_KEY} characters`);
  return value;
}

/** `filename`: any text, made safe rather than refused, unless no letter or digit is left of it. */
function readFilename(root: QueryNode): string | undefined {
  const found = child(root, 'filename');
  if (!found) return undefined;
  const name = safeFileName(text(found, 'a file name'));
  if (name === undefined) throw invalidParam(found.name, 'a file name with something besides _, dots, dashes and spaces');
  return name;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

export const parseQuery = (rawQueryString: string, headers?: Record<string, string | undefined>): Options =>
  readQuery(buildTree(rawQueryString), headers);

/** The readers over an already built key tree (tests/openapi walks it to list every key the parser reads). */
export function readQuery(root: QueryNode, headers?: Record<string, string | undefined>): Options {
  refuseServerPaths(root);
  refuseNotOffered(root);
  const url = readUrl(root);
  const { meta, audio, video } = readMeta(root);
  const options: Options = {
    url,
    meta,
    screenshot: readScreenshot(root),
    pdf: readPdf(root),
    ping: readPing(root),
    ...readOutput(root),
    ...readTiming(root),
    force: flagOf(root, 'force', false),
    cacheKey: readCacheKey(root),
    filename: readFilename(root),
    ...readPage(root),
    headers: readHeaders(root, headers),
    audio,
    video,
    iframe: readIframe(root),
    insights: readInsights(root),
    palette: flagOf(root, 'palette', false),
    adblock: flagOf(root, 'adblock', true),
    data: readData(root),
  };
  return deepFreeze(options);
}
