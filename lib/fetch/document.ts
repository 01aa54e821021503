/**
 * Loads the target with the guarded fetcher and says what it is. Only HTML (or what sniffs as HTML) is read in
 * full: a direct link to an image, a video or a PDF answers from its headers, so a 2 GB video costs one header read.
 */
import type { Budget } from '../time/budget.ts';
import type { Config } from '../config.ts';
import { decodeHtml } from './charset.ts';
import { openResponse, type Redirect, type Resolver } from './index.ts';
import type { VettedUrl } from '../guard/policy.ts';

export interface LoadedPage {
  url: string;
  statusCode: number | null;
  headers: Record<string, string>;
  /** Set by the fetcher (not the browser): cookie name → value, for matching only. */
  cookies?: Record<string, string>;
  redirects: Redirect[];
  /** `html` is decoded text; `media` is a direct link to an image, video or audio file; `other` is anything else. */
  content:
    | { kind: 'html'; html: string }
    | { kind: 'media'; media: 'image' | 'video' | 'audio'; contentType: string }
    | { kind: 'other'; contentType: string | undefined };
}

export interface LoadOptions {
  config: Config;
  budget: Budget;
  headers: Record<string, string>;
  resolver?: Resolver | undefined;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Types servers send when they do not know better; the body decides. */
const VAGUE_TYPES = new Set(['', 'text/plain', 'application/octet-stream', 'binary/octet-stream']);
const HTML_START = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|title|link|script)\b/i;

export async function loadPage(url: VettedUrl, { config, budget, headers, resolver }: LoadOptions): Promise<LoadedPage> {
  const response = await openResponse(url, {
    policy: config.policy,
    budget,
    userAgent: config.userAgent,
    maxBytes: config.maxBodyBytes,
    headers,
    resolver,
  });
  const { body, cancel, ...meta } = response;
  const contentType = response.headers['content-type'];
  const mime = contentType?.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const media = /^(image|video|audio)\//.exec(mime)?.[1] as 'image' | 'video' | 'audio' | undefined;

  if (media && contentType) {
    cancel();
    return { ...meta, content: { kind: 'media', media, contentType } };
  }
  if (!HTML_TYPES.has(mime) && !VAGUE_TYPES.has(mime)) {
    cancel();
    return { ...meta, content: { kind: 'other', contentType } };
  }
  const bytes = Buffer.concat(await Array.fromAsync(body));
  const { text } = decodeHtml(bytes, contentType);
  if (HTML_TYPES.has(mime) || HTML_START.test(text.slice(0, 2048))) {
    return { ...meta, content: { kind: 'html', html: text } };
  }
  return { ...meta, content: { kind: 'other', contentType } };
}
