/**
 * A response body as Glance reads it: decoded by Content-Encoding, cut off at the size limit, ended by the
 * budget. Whatever stops the reading (done, limit, error, the reader leaving early) releases the connection.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import type { Inflate, InflateRaw } from 'node:zlib';
import { GlanceError } from '../errors.ts';
import { zlib } from './builtins.ts';
import { fetchFailure, type Attempt } from './errors.ts';

// Browsers render a body whose compressed stream was cut short, so decoding is as forgiving (as in undici's fetch).
const zlibLenient = () => ({ flush: zlib().constants.Z_SYNC_FLUSH, finishFlush: zlib().constants.Z_SYNC_FLUSH });
const brotliLenient = () => ({ flush: zlib().constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib().constants.BROTLI_OPERATION_FLUSH });

/** A zlib stream opens with CMF/FLG: method 8 and a header checksum divisible by 31 (RFC 1950 §2.2). */
const isZlibHeader = (chunk: Buffer): boolean =>
  chunk.length < 2 ? (chunk[0]! & 0x0f) === 0x08 : (chunk[0]! & 0x0f) === 0x08 && chunk.readUInt16BE(0) % 31 === 0;

/**
 * `deflate` means zlib-wrapped data (RFC 9110 §8.4.1.2), yet some servers send raw deflate and browsers accept
 * both, so the first bytes decide.
 */
function createDeflateDecoder(): Transform {
  let inflater: Inflate | InflateRaw | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (chunk.length === 0) return callback();
      if (!inflater) {
        inflater = isZlibHeader(chunk) ? zlib().createInflate(zlibLenient()) : zlib().createInflateRaw(zlibLenient());
        inflater.on('data', (data: Buffer) => this.push(data));
        inflater.on('error', (error) => this.destroy(error));
      }
      inflater.write(chunk, () => callback());
    },
    flush(callback) {
      if (!inflater) return callback();
      inflater.once('end', () => callback());
      inflater.end();
    },
  });
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib().createGunzip(zlibLenient()),
  'x-gzip': () => zlib().createGunzip(zlibLenient()),
  deflate: createDeflateDecoder,
  br: () => zlib().createBrotliDecompress(brotliLenient()),
};

/** More layers than this is a decompression bomb, not a real server (undici and curl use the same cap). */
const MAX_ENCODINGS = 5;

/** Content codings in the order they must be undone (the header lists them in the order they were applied). */
function supportedCodings(contentEncoding: string | undefined): string[] | undefined {
  const listed = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const unsupported = listed.find((coding) => !(coding in DECODERS));
  return unsupported !== undefined || listed.length > MAX_ENCODINGS ? undefined : listed.reverse();
}

function codings(contentEncoding: string | undefined, url: URL): string[] {
  const order = supportedCodings(contentEncoding);
  if (order) return order;
  throw new GlanceError(
    'EFETCH',
    `Could not fetch ${url.href}: the response uses an unsupported content encoding (${contentEncoding}).`,
  );
}

/** The streams that undo `contentEncoding`, first to last; undefined when a coding is not one we decode. */
export function contentDecoders(contentEncoding: string | undefined): Transform[] | undefined {
  return supportedCodings(contentEncoding)?.map((coding) => DECODERS[coding]!());
}

export interface BodyOptions {
  contentEncoding: string | undefined;
  maxBytes: number;
  attempt: Attempt;
  /** True once the reader gave up on the body: its end is then silent, not an error. */
  cancelled: () => boolean;
}

/**
 * Drops a body we will not read and frees its connection. A decoder cut short reports it as an 'error' event,
 * which nobody listens to once we have stopped reading, so it is swallowed here rather than crash the process.
 */
export function release(body: Readable): void {
  body.on('error', () => undefined).destroy();
}

/** A redirect's body bigger than this costs more to read than a new connection does (undici's dump() limit). */
const DRAIN_BYTES = 128 * 1024;

/**
 * Reads out a body we do not want (a redirect's), so its keep-alive connection can carry the next hop; a big one
 * is cut instead. Settles at the end, at the cut, or when the budget's abort destroys the body.
 */
export function drain(body: Readable): Promise<void> {
  return new Promise((resolve) => {
    let size = 0;
    body.once('end', resolve).once('close', resolve).on('error', () => resolve());
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_BYTES) release(body);
    });
  });
}

export function tooLarge(url: URL, maxBytes: number): GlanceError {
  return new GlanceError('ETOOLARGE', `The body of ${url.href} is larger than the ${maxBytes}-byte limit.`);
}

/** Checks the codings up front (so an unsupported one fails before any reading) and returns the body reader. */
export function decodedBody(raw: Readable, options: BodyOptions): AsyncGenerator<Buffer> {
  const order = codings(options.contentEncoding, options.attempt.url);
  return readBody(raw, order, options);
}

async function* readBody(raw: Readable, order: string[], options: BodyOptions): AsyncGenerator<Buffer> {
  const { maxBytes, attempt } = options;
  const decoders = order.map((coding) => DECODERS[coding]!());
  let corrupt: Error | undefined;
  for (const decoder of decoders) decoder.once('error', (error: Error) => (corrupt ??= error));
  // pipeline() destroys every stage when one fails, so an error anywhere surfaces in the loop below.
  const tail: Readable = decoders.length > 0 ? (pipeline([raw, ...decoders], () => {}) as Transform) : raw;
  let size = 0;
  try {
    for await (const chunk of tail as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(attempt.url, maxBytes);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof GlanceError) throw error;
    if (options.cancelled()) return;
    if (corrupt && !attempt.signal.aborted) {
      throw new GlanceError(
        'EFETCH',
        `Could not fetch ${attempt.url.href}: its ${order.join(' + ')} body is corrupt (${corrupt.message}).`,
        { cause: corrupt },
      );
    }
    throw fetchFailure(error, attempt);
  } finally {
    release(raw);
    release(tail);
  }
}
