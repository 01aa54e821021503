/**
 * Issue 25: Chromium never guesses UTF-8 for an http(s) page (blink's text_encoding_detector.cc refuses it, to keep
 * sites labelling), so an undeclared UTF-8 page is drawn `CafÃ©` while the fetch path reads `Café`. The proxy tells
 * the browser, in the document's Content-Type, the charset the fetch path would choose (lib/fetch/charset.ts), so
 * both read the same characters. Only documents (loadsDocument: a page's fetch() or XHR reads its answer as it
 * came), and only undeclared HTML: a charset the server, a BOM or a <meta> declares is honoured by browsers
 * already; CSS and scripts without a charset of their own take their document's; XHTML follows XML's rules (its
 * declaration, else UTF-8), which leave nothing to guess; text/plain is left as browsers read it.
 *
 * The bytes pass unchanged, so Content-Length and the content coding still hold. Only the body's first SNIFF_BYTES
 * (decoded) are held, and no longer than SNIFF_WAIT_MS once some came, so a page that streams is still drawn as it
 * streams. Plain http only: an https document crosses the proxy inside its TLS tunnel, unread (proxy.ts); it is
 * labelled inside the browser instead (document-charset.ts).
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, pipeline, type Transform } from 'node:stream';
import { MIMEType } from 'node:util';
import { contentDecoders } from '../fetch/body.ts';
import { headerEncoding, SNIFF_BYTES, undeclaredCharset, type GuessEncoding } from '../fetch/charset.ts';

/** How long a document's first bytes are waited for; past it the choice is made on what came (a slow stream). */
const SNIFF_WAIT_MS = 500;
/**
 * Coded bytes held while SNIFF_BYTES of decoded ones are awaited: a stream that decodes to little is let go. With
 * Chromium's 32 connections to a proxy, a page makes the proxy hold a few MB at most.
 */
const MAX_HELD_BYTES = 2 * SNIFF_BYTES;

/** Where Chromium draws what it asked for as a document: the page, or a frame. */
const DOCUMENT_DESTINATIONS: ReadonlySet<string> = new Set(['document', 'iframe', 'frame']);

/**
 * Documents sniffed for a charset a page, by the proxy (http) and by DevTools (https) each: past it they pass
 * unlabelled. Choosing a charset for a head that is not UTF-8 runs chardet on the main thread, 27–82 ms for 64 KB;
 * a page can load up to PAGE_LIMITS.total (1000) frames, or fetch()es that claim to be documents, which would hold
 * the process over a minute. 16 keeps a page and its frames labelled and the worst case near 1.3 s a path, in
 * slices of at most 82 ms.
 */
export const MAX_SNIFFED = 16;

/**
 * Whether `request` loads a document, the page or a frame: only those are labelled. A page's fetch() or XHR is
 * left as it came, since a label would change what the page's scripts read (an XHR decodes by it), and its answers
 * are many. Chromium says so in Sec-Fetch-Dest, which scripts cannot set, but sends it to potentially trustworthy
 * URLs only (localhost here: https crosses the proxy unread), so a plain http request has none; there, Chromium's
 * Accept for documents (text/html first) tells them from fetch() and XHR (which accept any type unless the script
 * says otherwise).
 * A script that sends that Accept itself reads its answer as a frame would; the proxy's cap bounds what it costs.
 */
export function loadsDocument(request: IncomingMessage): boolean {
  const destination = request.headers['sec-fetch-dest'];
  if (destination !== undefined) return DOCUMENT_DESTINATIONS.has(destination.toLowerCase());
  return /^text\/html\s*(?:[,;]|$)/i.test(request.headers.accept ?? '');
}

/** `text/html` answered with a body and no charset a browser would use in its Content-Type. */
export function mayLackCharset(method: string | undefined, status: number, contentType: string | undefined): boolean {
  if (method === 'HEAD' || status < 200 || status === 204 || status === 304) return false;
  return typeOf(contentType)?.essence === 'text/html' && headerEncoding(contentType) === undefined;
}

function typeOf(contentType: string | undefined): MIMEType | undefined {
  try {
    return contentType === undefined ? undefined : new MIMEType(contentType);
  } catch {
    return undefined;
  }
}

export interface Sniffed {
  /** The answer's raw chunks read so far: they go to the browser first, then the rest of `answer`. */
  readonly held: readonly Buffer[];
  /** The charset to declare, or undefined to leave the answer as it came. */
  readonly charset: string | undefined;
}

/**
 * Reads `answer` until SNIFF_BYTES of its decoded body, its end or SNIFF_WAIT_MS (once some came), then leaves it
 * paused. A content coding we cannot undo, or a corrupt one, is not sniffed further: the answer goes on as it came,
 * or as its decoded start says.
 */
export function sniffCharset(answer: IncomingMessage, guess: GuessEncoding): Promise<Sniffed> {
  const contentType = answer.headers['content-type'];
  const decoders = contentDecoders(answer.headers['content-encoding']);
  if (!decoders) return Promise.resolve({ held: [], charset: undefined });
  const chain: Transform[] = decoders.length > 0 ? decoders : [new PassThrough()];
  const [input, output] = [chain[0]!, chain.at(-1)!];
  if (chain.length > 1) pipeline(chain, () => undefined);
  const held: Buffer[] = [];
  const decoded: Buffer[] = [];
  let [heldBytes, decodedBytes, done, late] = [0, 0, false, false];

  return new Promise((resolve) => {
    const finish = (whole: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      answer.off('data', hold).off('end', ended).off('error', stop).pause();
      output.off('data', decode).off('end', decodedAll);
      for (const stream of chain) stream.on('error', () => undefined).destroy();
      const head = Buffer.concat(decoded).subarray(0, SNIFF_BYTES);
      const charset = head.length > 0 ? undeclaredCharset(head, contentType, whole, guess) : Promise.resolve(undefined);
      // A guess that failed (its worker gone or busy) leaves the page as the browser would read it.
      resolve(charset.then((found) => ({ held, charset: found }), () => ({ held, charset: undefined })));
    };
    const hold = (chunk: Buffer): void => {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= MAX_HELD_BYTES) return finish(false);
      input.write(chunk);
    };
    const decode = (chunk: Buffer): void => {
      decoded.push(chunk);
      decodedBytes += chunk.length;
      if (decodedBytes >= SNIFF_BYTES || late) finish(false);
    };
    const decodedAll = (): void => finish(true);
    const ended = (): void => void input.end();
    const stop = (): void => finish(false);
    // Nothing came yet: the choice waits for the first bytes, as the page's drawing would anyway.
    const timer = setTimeout(() => (decodedBytes > 0 ? stop() : (late = true)), SNIFF_WAIT_MS);
    output.on('data', decode).once('end', decodedAll).once('error', stop);
    answer.on('data', hold).once('end', ended).once('error', stop);
  });
}

/** `rawHeaders` with each Content-Type given `charset`. */
export function withCharset(rawHeaders: readonly string[], charset: string | undefined): string[] {
  const headers = [...rawHeaders];
  if (charset === undefined) return headers;
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== 'content-type') continue;
    const type = typeOf(headers[i + 1]);
    if (!type) continue;
    type.params.set('charset', charset);
    headers[i + 1] = type.toString();
  }
  return headers;
}
