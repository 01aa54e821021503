/**
 * Content addressing: an object's key is the SHA-256 of its bytes plus an extension for its type, so a key names
 * exactly one content forever. That is what makes the immutable cache policy and the skipped re-uploads safe.
 * With a caller's `filename`, the key is `<sha256>/<name>.<ext>`: the hash keeps it unique to the bytes (two
 * answers named alike never share an object unless their bytes are the same), and the name is the URL's last
 * segment and the object's `Content-Disposition`, which the key alone determines.
 */
import { createHash } from 'node:crypto';
import { GlanceError } from '../errors.ts';
import { essence, mimeOf, typeFromContentType } from '../media/types.ts';
import { contentDisposition, isSafeFileName } from './filename.ts';
import type { StoredObject } from './index.ts';

/** Keys never change content, so browsers and the CDN may keep them for a year without revalidating. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** What Glance stores: screenshots and PDFs, and Lighthouse reports too large to answer inline. */
const EXTENSIONS = ['png', 'jpg', 'pdf', 'webp', 'json', 'html', 'csv'] as const;
type Extension = (typeof EXTENSIONS)[number];
const isExtension = (ext: string | null): ext is Extension => (EXTENSIONS as readonly (string | null)[]).includes(ext);

const KEY = new RegExp(`^[0-9a-f]{64}(?:/([^/]+))?\\.(${EXTENSIONS.join('|')})$`, 'u');

interface KeyParts {
  /** The caller's safe file name, without its extension. */
  readonly name: string | undefined;
  readonly extension: Extension;
}

function partsOf(key: string): KeyParts | undefined {
  const match = KEY.exec(key);
  if (!match) return undefined;
  const [, name, extension] = match;
  if (name !== undefined && !isSafeFileName(name)) return undefined;
  return { name, extension: extension as Extension };
}

/** Guards every read: only keys this module could have made reach the disk or the bucket (no `../`, no second `/`,
 *  a name only in its safe form). */
export const isStorageKey = (key: string): boolean => partsOf(key) !== undefined;

/** The content hash of a valid key (its ETag, and the local disk's file name). */
export const hashOf = (key: string): string => key.slice(0, 64);

/** The `Content-Disposition` a valid key is served with: only named keys have one. */
export function contentDispositionOf(key: string): string | undefined {
  const parts = partsOf(key);
  return parts?.name === undefined ? undefined : contentDisposition(`${parts.name}.${parts.extension}`);
}

/** The key as a URL path: the name percent-encoded (S3 and the local service decode it back to the key). */
const urlPathOf = (key: string): string => {
  const slash = key.indexOf('/');
  return slash < 0 ? key : `${key.slice(0, slash)}/${encodeURIComponent(key.slice(slash + 1))}`;
};

/** The key a URL path names, or undefined when the path is not percent-encoded text. */
export function keyOfUrlPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** Report formats: text, not media, so they are not in the media types' table (lib/media/types.ts). */
const REPORTS: Readonly<Record<string, { mime: string; contentType: string }>> = {
  json: { mime: 'application/json', contentType: 'application/json' },
  html: { mime: 'text/html', contentType: 'text/html; charset=utf-8' },
  csv: { mime: 'text/csv', contentType: 'text/csv; charset=utf-8' },
};

/** The content type of an extension Glance stores. */
const canonical = (extension: Extension): string => REPORTS[extension]?.contentType ?? mimeOf(extension)!;

function extensionOf(contentType: string): Extension {
  const mime = essence(contentType);
  const report = Object.entries(REPORTS).find(([, type]) => type.mime === mime)?.[0];
  if (report !== undefined && isExtension(report)) return report;
  // `image/jpg` is not a registered type, but some encoders and servers still send it.
  if (mime === 'image/jpg') return 'jpg';
  const extension = typeFromContentType(mime);
  // Only a type's canonical name: `image/apng` is refused, not stored as `image/png`.
  if (isExtension(extension) && canonical(extension) === mime) return extension;
  throw new GlanceError('EFATAL', `Cannot store content of type "${contentType}".`);
}

interface ContentKey {
  key: string;
  contentType: string;
  /** Set when the key has a name. */
  contentDisposition: string | undefined;
}

/** The key, canonical content type and disposition for some bytes, named with a safe file name (filename.ts). */
export function contentKey(body: Buffer, contentType: string, name?: string): ContentKey {
  const extension = extensionOf(contentType);
  const hash = createHash('sha256').update(body).digest('hex');
  if (name !== undefined && !isSafeFileName(name)) throw new GlanceError('EFATAL', 'An asset was named with an unsafe file name.');
  const key = name === undefined ? `${hash}.${extension}` : `${hash}/${name}.${extension}`;
  return { key, contentType: canonical(extension), contentDisposition: contentDispositionOf(key) };
}

/** The content type a valid key stands for. */
export const contentTypeOf = (key: string): string => canonical(key.slice(key.lastIndexOf('.') + 1) as Extension);

/** The error for a put abandoned because the request's budget ran out, rather than because storage failed. */
const outOfTime = (cause: unknown): GlanceError =>
  new GlanceError('ETIMEOUT', 'The request ran out of time while storing the asset.', { cause });

/**
 * Every store's put around its own `write` (which stores the bytes under the key, or renews a copy already stored):
 * nothing is written once `signal` has fired, and a failure is ETIMEOUT when the budget ended, else the store's own
 * `fatal` error.
 */
export async function putContent(
  { body, type, name, cdnUrl, signal }: { body: Buffer; type: string; name: string | undefined; cdnUrl: string; signal: AbortSignal | undefined },
  write: (stored: ContentKey) => Promise<void>,
  fatal: (error: unknown) => GlanceError,
): Promise<StoredObject> {
  const stored = contentKey(body, type, name);
  try {
    signal?.throwIfAborted();
    await write(stored);
  } catch (error) {
    throw signal?.aborted ? outOfTime(error) : fatal(error);
  }
  const { key, contentType } = stored;
  return { key, url: `${cdnUrl}/${urlPathOf(key)}`, size: body.length, contentType };
}
