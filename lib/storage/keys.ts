/**
 * Content addressing: an object's key is the SHA-256 of its bytes plus an extension for its type, so a key names
 * exactly one content forever. That is what makes the immutable cache policy and the skipped re-uploads safe.
 */
import { createHash } from 'node:crypto';
import { GlanceError } from '../errors.ts';
import { essence, mimeOf, typeFromContentType } from '../media/types.ts';
import type { StoredObject } from './index.ts';

/** Keys never change content, so browsers and the CDN may keep them for a year without revalidating. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** What Glance stores: screenshots and PDFs, and Lighthouse reports too large to answer inline. */
const EXTENSIONS = ['png', 'jpg', 'pdf', 'webp', 'json', 'html', 'csv'] as const;
type Extension = (typeof EXTENSIONS)[number];
const isExtension = (ext: string | null): ext is Extension => (EXTENSIONS as readonly (string | null)[]).includes(ext);

const KEY = new RegExp(`^[0-9a-f]{64}\\.(${EXTENSIONS.join('|')})$`);

/** Guards every read: only keys this module could have made reach the disk or the bucket (no `../`, no `/`). */
export const isStorageKey = (key: string): boolean => KEY.test(key);

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

/** The key and canonical content type for some bytes. */
export function contentKey(body: Buffer, contentType: string): { key: string; contentType: string } {
  const extension = extensionOf(contentType);
  const hash = createHash('sha256').update(body).digest('hex');
  return { key: `${hash}.${extension}`, contentType: canonical(extension) };
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
  { body, type, cdnUrl, signal }: { body: Buffer; type: string; cdnUrl: string; signal: AbortSignal | undefined },
  write: (key: string, contentType: string) => Promise<void>,
  fatal: (error: unknown) => GlanceError,
): Promise<StoredObject> {
  const { key, contentType } = contentKey(body, type);
  try {
    signal?.throwIfAborted();
    await write(key, contentType);
  } catch (error) {
    throw signal?.aborted ? outOfTime(error) : fatal(error);
  }
  return { key, url: `${cdnUrl}/${key}`, size: body.length, contentType };
}
