/**
 * Issue 25 for https: an https document crosses the proxy inside its TLS tunnel, unread (charset.ts), so its
 * undeclared charset is told to Chromium here instead, by the DevTools Fetch domain at the response stage, with the
 * same decision (lib/fetch/charset.ts). Only documents (pages and their frames) whose Content-Type is HTML without
 * a charset are held; every other response is never paused.
 *
 * Unlike the proxy, which holds a document's first 64 KB, this holds the whole document: DevTools can replace a
 * response's headers only together with its whole body (Fetch.fulfillRequest). The body is read up to the fetch
 * path's limit and for at most a share of what is left of the page's budget; a document still streaming then gets
 * what came, so a never-ending one cannot hold the render past its budget. A <meta charset> is only seen in the body,
 * so a page declaring one that way is held too, and passed on unlabelled.
 *
 * The page's own session sees the documents of all its frames: Chromium's headless shell runs cross-site frames
 * in the page's process (measured, Chromium 156; @sparticuz/chromium turns site isolation off on Lambda). Given
 * `--site-per-process`, it would still see a cross-site frame's own document, not those of frames inside it, which
 * Chromium asks for in that frame's session.
 */
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { SNIFF_BYTES, undeclaredCharset, type GuessEncoding } from '../fetch/charset.ts';
import { HOP_BY_HOP } from '../fetch/hop-by-hop.ts';
import type { Budget } from '../time/budget.ts';
import { MAX_SNIFFED, mayLackCharset, withCharset } from './charset.ts';
import { glanceSession } from './session.ts';

/** The share of the page's remaining budget a document may be held for. */
const HOLD_SHARE = 0.5;
/**
 * Bytes asked of each IO.read, which answers only once it has them all (or the body ended): a document cut by the
 * time cap loses the read in flight, so a never-ending one shorter than this gets nothing. Smaller costs a round
 * trip per READ_BYTES (640 for a 10 MB document).
 */
const READ_BYTES = 16 * 1024;

/** Fields the fulfilled response must not repeat: Chromium hands over the body decoded, and whole. */
const NOT_REPEATED: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'content-encoding', 'content-length']);

export interface DocumentCharsets {
  /** The Content-Type the target sent for `url`, when it was given a charset here. */
  sentContentType(url: URL): string | undefined;
}

export interface HoldLimits {
  /** The fetch path's body limit: what a held document is cut at. */
  readonly maxBytes: number;
  readonly budget: Budget;
}

/** Bounds the memory a page that loads thousands of labelled frames can make us hold. */
const MAX_LOGGED = 200;

const keyOf = (url: URL): string => url.href.replace(/#.*$/, '');

/** Reads the taken body `handle` until its end, `maxBytes` or `holdMs`; answers what came, and whether whole. */
async function readBody(session: CDPSession, handle: string, maxBytes: number, holdMs: number): Promise<{ body: Buffer; whole: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), holdMs)));
  try {
    while (size < maxBytes) {
      const read = await Promise.race([session.send('IO.read', { handle, size: READ_BYTES }), late]);
      if (read === 'late') return { body: Buffer.concat(chunks), whole: false };
      const chunk = Buffer.from(read.data, read.base64Encoded ? 'base64' : 'utf8');
      chunks.push(chunk);
      size += chunk.length;
      if (read.eof) return { body: Buffer.concat(chunks), whole: true };
    }
    return { body: Buffer.concat(chunks).subarray(0, maxBytes), whole: false };
  } finally {
    clearTimeout(timer);
    void session.send('IO.close', { handle }).catch(() => undefined);
  }
}

/** The paused response's headers for fulfilling it with its decoded body, and `charset`. */
function fulfilledHeaders(headers: readonly Protocol.Fetch.HeaderEntry[], charset: string | undefined): Protocol.Fetch.HeaderEntry[] {
  const kept = headers.filter(({ name }) => !NOT_REPEATED.has(name.toLowerCase())).flatMap(({ name, value }) => [name, value]);
  const labelled = withCharset(kept, charset);
  return Array.from({ length: labelled.length / 2 }, (_, i) => ({ name: labelled[2 * i]!, value: labelled[2 * i + 1]! }));
}

const contentTypeOf = (headers: readonly Protocol.Fetch.HeaderEntry[] | undefined): string | undefined =>
  headers?.find(({ name }) => name.toLowerCase() === 'content-type')?.value;

/**
 * Labels the undeclared https documents `page` loads from now on; `limits()` is read at each document, so a page
 * set up before its request was known (the warm spare) holds by that request's budget.
 */
export async function labelDocuments(page: Page, limits: () => HoldLimits, guess: GuessEncoding): Promise<DocumentCharsets> {
  const session = await glanceSession(page);
  const sent = new Map<string, string>();
  let sniffed = 0;

  /** Answers a paused document: as it came, or labelled; `taken` once its body is ours to fulfil. */
  const label = async (event: Protocol.Fetch.RequestPausedEvent, taken: { body: boolean }): Promise<void> => {
    const { requestId, responseStatusCode: status, responseHeaders } = event;
    const contentType = contentTypeOf(responseHeaders);
    // A pause before the answer came (Chromium pauses some frame navigations at both stages), or a failed one.
    if (status === undefined || responseHeaders === undefined) return void (await session.send('Fetch.continueRequest', { requestId }));
    if (sniffed >= MAX_SNIFFED || !mayLackCharset(event.request.method, status, contentType)) {
      return void (await session.send('Fetch.continueResponse', { requestId }));
    }
    sniffed += 1;
    const { maxBytes, budget } = limits();
    const { stream } = await session.send('Fetch.takeResponseBodyAsStream', { requestId });
    taken.body = true;
    const { body, whole } = await readBody(session, stream, maxBytes, Math.max(0, budget.remaining() * HOLD_SHARE));
    // From its head, as the proxy decides (charset.ts): a check of megabytes would hold the event loop.
    const head = body.subarray(0, SNIFF_BYTES);
    // A guess that failed (its worker gone or busy) leaves the document as the browser would read it.
    const charset = body.length > 0 ? await undeclaredCharset(head, contentType, whole && body.length <= SNIFF_BYTES, guess).catch(() => undefined) : undefined;
    if (charset !== undefined && sent.size < MAX_LOGGED) sent.set(keyOf(new URL(event.request.url)), contentType!);
    await session.send('Fetch.fulfillRequest', {
      requestId,
      responseCode: status,
      ...(event.responseStatusText ? { responsePhrase: event.responseStatusText } : {}),
      responseHeaders: fulfilledHeaders(responseHeaders, charset),
      body: body.toString('base64'),
    });
  };

  session.on('Fetch.requestPaused', (event: Protocol.Fetch.RequestPausedEvent) => {
    const taken = { body: false };
    // The body stopped coming (the target cut it): the document fails as it would have. Otherwise the page, its
    // context or the request is gone, and nothing is left to answer.
    label(event, taken).catch(() =>
      taken.body ? session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Failed' }).catch(() => undefined) : undefined,
    );
  });
  await session.send('Fetch.enable', { patterns: [{ urlPattern: 'https://*', resourceType: 'Document', requestStage: 'Response' }] });
  return { sentContentType: (url) => sent.get(keyOf(url)) };
}
