/**
 * Content addressing: an object's key is the SHA-256 of its bytes plus an extension for its type, so a key names
 * exactly one content forever. That is what makes the immutable cache policy and the skipped re-uploads safe.
 */
import { createHash } from 'node:crypto';
import { GlanceError } from '../errors.ts';

/** Keys never change content, so browsers and the CDN may keep them for a year without revalidating. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const EXTENSIONS = { png: 'image/png', jpg: 'image/jpeg', pdf: 'application/pdf', webp: 'image/webp' } as const;
type Extension = keyof typeof EXTENSIONS;

const KEY = /^[0-9a-f]{64}\.(png|jpg|pdf|webp)$/;

/** Guards every read: only keys this module could have made reach the disk or the bucket (no `../`, no `/`). */
export const isStorageKey = (key: string): boolean => KEY.test(key);

function extensionOf(contentType: string): Extension {
  const essence = contentType.split(';')[0]?.trim().toLowerCase();
  // `image/jpg` is not a registered type, but some encoders and servers still send it.
  if (essence === 'image/jpg') return 'jpg';
  for (const [extension, type] of Object.entries(EXTENSIONS)) {
    if (type === essence) return extension as Extension;
  }
  throw new GlanceError('EFATAL', `Cannot store content of type "${contentType}".`);
}

/** The key and canonical content type for some bytes. */
export function contentKey(body: Buffer, contentType: string): { key: string; contentType: string } {
  const extension = extensionOf(contentType);
  const hash = createHash('sha256').update(body).digest('hex');
  return { key: `${hash}.${extension}`, contentType: EXTENSIONS[extension] };
}

/** The content type a valid key stands for. */
export const contentTypeOf = (key: string): string => EXTENSIONS[key.slice(key.lastIndexOf('.') + 1) as Extension];

/** The error for a put abandoned because the request's budget ran out, rather than because storage failed. */
export const outOfTime = (cause: unknown): GlanceError =>
  new GlanceError('ETIMEOUT', 'The request ran out of time while storing the asset.', { cause });
