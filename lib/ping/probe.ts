/**
 * One media URL: reachable or not, and what it is (docs/CONTRACT.md §4.5).
 *
 * One request answers both: a GET with `Range: bytes=0-65535`. Its status says reachable, its content-range
 * (or content-length) the size, its first bytes the type, dimensions and duration. No HEAD is sent: it would
 * tell nothing the ranged GET does not, a HEAD-then-GET doubles every probe's latency, and servers that refuse
 * HEAD (405) stop being a special case. A server that ignores Range answers 200 with the whole file, and the
 * reading stops after the first bytes all the same. Further ranged GETs happen only for the few formats whose
 * facts lie further in (see source.ts).
 */
import type { MediaField } from '../data/fields.ts';
import type { Budget } from '../time/budget.ts';
import { GlanceError } from '../errors.ts';
import { openResponse, type AddressPolicy, type FetchOptions, type FetchResponse, type Resolver } from '../fetch/index.ts';
import { NESTED_PROOF_HEADER, type Hop } from '../guard/loop.ts';
import { OutboundLimitError, type Outbound } from '../guard/outbound.ts';
import type { MediaObject } from '../media/object.ts';
import { essence, HTML_TYPES, typeFromContentType, typeFromUrl } from '../media/types.ts';
import { imageDimensions } from '../media/dimensions.ts';
import { prettyBytes, prettyDuration, roundDuration } from '../media/pretty.ts';
import { isImage, sniff, type Sniffed } from '../media/sniff.ts';
import { URL_TIME_LIMIT_MS } from '../time/limits.ts';
import { avFacts } from './av/index.ts';
import { declaredSize, HEAD_BYTES, RangedSource, readUpTo, type ByteSource, type Facts } from './source.ts';

export interface ProbeDeps {
  policy: AddressPolicy;
  userAgent: string;
  resolver?: Resolver;
  /** The answer's allowance of outbound requests: a probe past it is unreachable for this answer only. */
  outbound?: Outbound | undefined;
  /** The loop mark the probes carry: `1` lets a Glance embed address (an og:image) be answered once (lib/guard/loop.ts). */
  hop?: Hop | undefined;
  /** This process's NESTED_PROOF_HEADER value, sent with a hop `1` probe of this service's own address. */
  nestedProof?: string | undefined;
  /**
   * With `palette`: image and logo probes read the whole body (up to `limit` bytes) in the same GET, without a
   * Range, and leave each complete image's bytes in `sink` by URL, so the palette is decoded from what was
   * already downloaded rather than from a second request.
   */
  body?: { limit: number; sink: Map<string, Buffer> };
}

export interface ProbeOutcome {
  media: MediaObject | null;
  /** False when the answer says more about this moment than about the URL (a timeout, a 429, a 5xx): not cached. */
  lasting: boolean;
}

/** How much further a JPEG is read when its frame header lies past the head (behind EXIF and ICC blocks). */
const JPEG_MORE_BYTES = 192 * 1024;

/** What Chrome sends for an <img> and for <audio>/<video>, so servers answer what a browser would get. */
const ACCEPT: Record<MediaField, string> = {
  image: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  logo: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  audio: '*/*',
  video: '*/*',
};

const isHtml = (contentType: string | undefined): boolean => HTML_TYPES.has(essence(contentType) ?? '');

async function openHead(url: string, options: FetchOptions, whole: boolean): Promise<FetchResponse> {
  if (whole) return openResponse(url, options);
  const ranged = await openResponse(url, { ...options, headers: { ...options.headers, range: `bytes=0-${HEAD_BYTES - 1}` } });
  if (ranged.statusCode !== 416) return ranged;
  // 416: a server that refuses this range of a file it has (an empty file has no range to give): ask plainly.
  ranged.cancel();
  return openResponse(ranged.url, options);
}

/** Sizes the image from the head, reading on for a JPEG whose frame header lies further in. */
async function imageFacts(type: Sniffed, source: ByteSource): Promise<Facts> {
  const size = imageDimensions(type, source.head);
  if (size || type !== 'jpg' || source.head.length < HEAD_BYTES) return size ?? {};
  const more = await source.read(source.head.length, JPEG_MORE_BYTES);
  return (more && imageDimensions(type, Buffer.concat([source.head, more]))) ?? {};
}

async function inspect(type: Sniffed | undefined, source: ByteSource): Promise<Facts> {
  if (type === undefined) return {};
  try {
    return isImage(type) ? await imageFacts(type, source) : await avFacts(type, source);
  } catch {
    // A parser tripping over odd bytes costs the enrichment, never the reachability already established.
    return {};
  }
}

function mediaObject(url: string, type: string | null, size: number | undefined, facts: Facts): MediaObject {
  const media: MediaObject = { url, type };
  if (size !== undefined) Object.assign(media, { size, size_pretty: prettyBytes(size) });
  if (facts.width && facts.height) Object.assign(media, { width: facts.width, height: facts.height });
  if (facts.duration !== undefined && Number.isFinite(facts.duration) && facts.duration > 0) {
    Object.assign(media, { duration: roundDuration(facts.duration), duration_pretty: prettyDuration(facts.duration) });
  }
  return media;
}

const UNREACHABLE: ProbeOutcome = { media: null, lasting: true };

/**
 * Whether the probe is of this service's own address with hop `1`: answered by a full nested request (a render,
 * lib/guard/loop.ts), which takes longer than any media file, so it gets what is left of the request's time; and
 * it carries the process's proof that its caller was counted.
 */
const nestedAtSelf = (url: string, deps: ProbeDeps): boolean => {
  const target = URL.parse(url);
  return target !== null && deps.hop === '1' && deps.policy.isOwn(target);
};

/** Answers that say how the server is doing right now (overloaded, rate-limiting, looping), not whether the URL is live. */
const isMomentary = (status: number): boolean => status === 429 || status >= 500;

export async function probeOutcome(url: string, kind: MediaField, budget: Budget, deps: ProbeDeps): Promise<ProbeOutcome> {
  const nested = nestedAtSelf(url, deps);
  const limit = nested ? Infinity : URL_TIME_LIMIT_MS;
  const own = budget.slice(limit);
  const cutShort = own.remaining() < limit;
  if (own.expired) return { media: null, lasting: false };
  const options: FetchOptions = {
    policy: deps.policy,
    budget: own,
    userAgent: deps.userAgent,
    resolver: deps.resolver,
    outbound: deps.outbound,
    hop: deps.hop,
    // The reading below stops at the bytes it needs, so the fetcher's whole-body limit must not refuse a big file.
    maxBytes: Number.MAX_SAFE_INTEGER,
    headers: { accept: ACCEPT[kind] },
    ...(nested && deps.nestedProof ? { targetOnly: { [NESTED_PROOF_HEADER]: deps.nestedProof } } : {}),
  };
  const body = kind === 'image' || kind === 'logo' ? deps.body : undefined;
  let response: FetchResponse;
  try {
    response = await openHead(url, options, body !== undefined);
  } catch (error) {
    // EFORBIDDENURL, EINVALURL, EFETCH, EMAXREDIRECTS, ETIMEOUT: all mean unreachable.
    // Neither a timeout (a slow moment, or a nested Glance still rendering) nor a spent allowance says anything
    // lasting about the URL: not cached.
    const timedOut = error instanceof GlanceError && error.code === 'ETIMEOUT';
    return { media: null, lasting: !timedOut && !(error instanceof OutboundLimitError) };
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    response.cancel();
    return isMomentary(response.statusCode) ? { media: null, lasting: false } : UNREACHABLE;
  }

  const declared = declaredSize(response);
  // An image whose size is declared needs no more bytes once its dimensions are read.
  const enough = (bytes: Buffer): boolean => {
    const type = declared !== undefined ? sniff(bytes) : undefined;
    return type !== undefined && isImage(type) && imageDimensions(type, bytes) !== undefined;
  };
  const { bytes, ended } = body ? await readUpTo(response, body.limit) : await readUpTo(response, HEAD_BYTES, enough);
  const size = declared ?? (ended ? bytes.length : undefined);
  // An empty body shows nothing (a browser draws a broken image), unless our own deadline cut it short.
  if (bytes.length === 0) return { media: null, lasting: !(cutShort && own.expired) };

  const sniffed = sniff(bytes);
  const contentType = response.headers['content-type'];
  // An HTML answer where a media file was expected is almost always a soft-404 or a login page, served with 200.
  // Microlink accepts any 2xx; Glance treats it as unreachable so the next candidate gets its chance. Bytes that
  // are plainly media win over a wrong label.
  if (sniffed === 'html' || (isHtml(contentType) && sniffed === undefined)) return UNREACHABLE;

  if (body && ended && sniffed !== undefined && isImage(sniffed)) body.sink.set(url, bytes);
  const rangeUrl = response.statusCode === 206 ? response.url : undefined;
  const facts = await inspect(sniffed, new RangedSource(bytes, size, rangeUrl, options));
  const type = typeFromContentType(contentType) ?? sniffed ?? typeFromUrl(response.url) ?? typeFromUrl(url);
  // The URL the page gave, not the final one: a redirect's target is often a signed, expiring CDN address.
  return { media: mediaObject(url, type, size, facts), lasting: true };
}

/** Probes one URL within `budget` (and at most URL_TIME_LIMIT_MS, see timeLimit): its enriched media object, or null. */
export async function probe(url: string, kind: MediaField, budget: Budget, deps: ProbeDeps): Promise<MediaObject | null> {
  return (await probeOutcome(url, kind, budget, deps)).media;
}
