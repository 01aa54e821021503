/**
 * Loads the target with the guarded fetcher and says what it is. Only HTML (or what sniffs as HTML) is read in
 * full: a direct link to an image, a video or a PDF answers from its headers, so a 2 GB video costs one header read.
 */
import type { Budget } from '../time/budget.ts';
import type { Config } from '../config.ts';
import { essence, HTML_TYPES } from '../media/types.ts';
import { headOf, type Text } from '../text/pieces.ts';
import { decodeBody, type GuessEncoding } from './charset.ts';
import { splitCallerHeaders } from './headers.ts';
import { openResponse, type Redirect, type Resolver } from './index.ts';
import type { VettedUrl } from '../guard/policy.ts';
import type { Outbound } from '../guard/outbound.ts';

export interface LoadedPage {
  url: string;
  statusCode: number | null;
  headers: Record<string, string>;
  /** Set by the fetcher (not the browser): cookie name → value, for matching only. */
  cookies?: Record<string, string>;
  redirects: Redirect[];
  /** `html` is decoded text; `media` is a direct link to an image, video or audio file; `text` a JSON or text
   *  body read because custom rules asked (`attr=json`); `other` is anything else. Texts stay in the pieces they were
   *  read in (lib/text/pieces.ts): joining a 10 MB page held the event loop 35–70 ms. */
  content:
    | { kind: 'html'; html: Text }
    | { kind: 'text'; text: Text; contentType: string | undefined }
    | { kind: 'media'; media: 'image' | 'video' | 'audio'; contentType: string }
    | { kind: 'other'; contentType: string | undefined };
}

export interface LoadOptions {
  config: Config;
  budget: Budget;
  headers: Record<string, string>;
  resolver?: Resolver | undefined;
  outbound?: Outbound | undefined;
  /** Where an undeclared body's encoding is guessed (lib/work/charset.ts). */
  guess: GuessEncoding;
  /** Read JSON and text bodies too (custom data rules may parse them), not only HTML. */
  text?: boolean;
}

/** Types servers send when they do not know better; the body decides. */
const VAGUE_TYPES = new Set(['', 'text/plain', 'application/octet-stream', 'binary/octet-stream']);
/** A tag that starts an HTML document, tried at one position (sticky). */
const HTML_START = /<(?:!doctype\s+html|html|head|body|meta|title|link|script)\b/iy;
const SPACES = /\s*/y;
const isTextual = (mime: string): boolean => mime === 'application/json' || mime.endsWith('+json') || mime.startsWith('text/');

export async function loadPage(url: VettedUrl, { config, budget, headers, resolver, outbound, guess, text: readText = false }: LoadOptions): Promise<LoadedPage> {
  const { everywhere, targetOnly } = splitCallerHeaders(headers);
  const response = await openResponse(url, {
    policy: config.policy,
    budget,
    userAgent: config.userAgent,
    maxBytes: config.maxBodyBytes,
    headers: everywhere,
    targetOnly,
    resolver,
    outbound,
  });
  const { body, cancel, ...meta } = response;
  const contentType = response.headers['content-type'];
  const mime = essence(contentType) ?? '';
  const media = /^(image|video|audio)\//.exec(mime)?.[1] as 'image' | 'video' | 'audio' | undefined;

  if (media && contentType) {
    cancel();
    return { ...meta, content: { kind: 'media', media, contentType } };
  }
  if (!HTML_TYPES.has(mime) && !VAGUE_TYPES.has(mime) && !(readText && isTextual(mime))) {
    cancel();
    return { ...meta, content: { kind: 'other', contentType } };
  }
  const { text } = await decodeBody(await Array.fromAsync(body), contentType, guess, budget.signal());
  if (HTML_TYPES.has(mime) || startsLikeHtml(headOf(text, 2048))) {
    return { ...meta, content: { kind: 'html', html: text } };
  }
  if (readText) return { ...meta, content: { kind: 'text', text, contentType } };
  return { ...meta, content: { kind: 'other', contentType } };
}

/**
 * Whether a body starts like HTML: whitespace and comments, then a document tag. Scanned with indexOf: the former
 * `^\s*(?:<!--[\s\S]*?-->\s*)*<…` could split a run of comments in exponentially many ways before failing.
 */
export function startsLikeHtml(start: string): boolean {
  let at = 0;
  for (;;) {
    SPACES.lastIndex = at;
    SPACES.test(start);
    at = SPACES.lastIndex;
    if (!start.startsWith('<!--', at)) break;
    const end = start.indexOf('-->', at + 4);
    if (end === -1) return false;
    at = end + 3;
  }
  HTML_START.lastIndex = at;
  return HTML_START.test(start);
}
