/**
 * The bytes of one media URL as the parsers see them: the head (the first bytes, from the probe's one ranged
 * GET), the file's total size when the server said it, and — only when the server honours ranges — a couple
 * more ranged GETs for bytes further in (an MP4 whose moov sits after mdat, an Ogg file's last page, an MP3
 * behind a large ID3 tag, a JPEG whose frame header follows a large EXIF block).
 */
import { openResponse, type FetchOptions, type FetchResponse } from '../fetch/index.ts';

/** What the probe asks for first: every header these formats have fits, bar the cases above. */
export const HEAD_BYTES = 64 * 1024;
/** Further reads per URL, each one more round trip; what they are for needs one, rarely two. */
const MAX_EXTRA_READS = 2;
/** A read past the head fetches at least this much, so a parser's next small read is served from it. */
const MIN_WINDOW = 16 * 1024;

/** What the bytes tell about a media file. */
export interface Facts {
  width?: number;
  height?: number;
  /** seconds */
  duration?: number;
}

export interface ByteSource {
  readonly head: Buffer;
  /** The file's size in bytes, when known. */
  readonly total: number | undefined;
  /**
   * Bytes from `offset`, up to `length` (fewer at the end of the file, or when only the head has them);
   * undefined when they cannot be had.
   */
  read(offset: number, length: number): Promise<Buffer | undefined>;
}

/**
 * Reads a body until `limit` bytes, its end, or `enough(bytesSoFar)`, then lets the connection go: a server
 * that ignores Range and sends 50 MB is read no further than the limit.
 */
export async function readUpTo(
  response: FetchResponse,
  limit: number,
  enough: (bytes: Buffer) => boolean = () => false,
): Promise<{ bytes: Buffer; ended: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  try {
    ended = true;
    for await (const chunk of response.body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit || enough(Buffer.concat(chunks))) {
        ended = false;
        break;
      }
    }
  } catch {
    // Reachability was settled by the status; a body that stalls or breaks midway still showed its first bytes.
    ended = false;
  } finally {
    response.cancel();
  }
  return { bytes: Buffer.concat(chunks), ended };
}

const CONTENT_RANGE = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i;

function contentRange(headers: Record<string, string>): { start: number; end: number; total?: number } | undefined {
  const match = CONTENT_RANGE.exec(headers['content-range']?.trim() ?? '');
  if (!match) return undefined;
  return { start: Number(match[1]), end: Number(match[2]), total: match[3] === '*' ? undefined : Number(match[3]) };
}

/** The size the headers give: a 206's content-range total, else a 200's content-length. */
export function declaredSize(response: Pick<FetchResponse, 'statusCode' | 'headers'>): number | undefined {
  if (response.statusCode === 206) {
    const range = contentRange(response.headers);
    if (range?.total !== undefined) return range.total;
    // `bytes 0-999/*` shorter than asked for: the range stopped at the end of the file.
    return range && range.start === 0 && range.end + 1 < HEAD_BYTES ? range.end + 1 : undefined;
  }
  const length = response.headers['content-length']?.trim();
  return length && /^\d+$/.test(length) ? Number(length) : undefined;
}

export class RangedSource implements ByteSource {
  readonly head: Buffer;
  readonly total: number | undefined;
  /** Where further ranges are asked for: the final URL, and only when the server answered a range with 206. */
  readonly #rangeUrl: string | undefined;
  readonly #options: FetchOptions;
  #reads = 0;
  #window: { offset: number; bytes: Buffer } | undefined;

  constructor(head: Buffer, total: number | undefined, rangeUrl: string | undefined, options: FetchOptions) {
    this.head = head;
    this.total = total;
    this.#rangeUrl = rangeUrl;
    this.#options = options;
  }

  async read(offset: number, length: number): Promise<Buffer | undefined> {
    const wanted = this.total === undefined ? length : Math.min(length, this.total - offset);
    if (wanted <= 0) return Buffer.alloc(0);
    const end = offset + wanted;
    if (end <= this.head.length) return this.head.subarray(offset, end);
    const window = this.#window;
    if (window && offset >= window.offset && end <= window.offset + window.bytes.length) {
      return window.bytes.subarray(offset - window.offset, end - window.offset);
    }
    const fetched = await this.#fetch(offset, Math.max(wanted, MIN_WINDOW));
    if (fetched) return fetched.subarray(0, wanted);
    // Without ranges, whatever the head holds from that offset is the best there is.
    return offset < this.head.length ? this.head.subarray(offset) : undefined;
  }

  async #fetch(offset: number, length: number): Promise<Buffer | undefined> {
    if (this.#rangeUrl === undefined || this.#reads >= MAX_EXTRA_READS || this.#options.budget.expired) return undefined;
    this.#reads += 1;
    const last = this.total === undefined ? offset + length - 1 : Math.min(offset + length, this.total) - 1;
    let response: FetchResponse;
    try {
      response = await openResponse(this.#rangeUrl, {
        ...this.#options,
        headers: { ...this.#options.headers, range: `bytes=${offset}-${last}` },
      });
    } catch {
      return undefined;
    }
    if (response.statusCode !== 206 || contentRange(response.headers)?.start !== offset) {
      response.cancel();
      return undefined;
    }
    const { bytes } = await readUpTo(response, last - offset + 1);
    this.#window = { offset, bytes };
    return bytes;
  }
}
