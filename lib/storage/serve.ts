/**
 * Answers a stored asset over HTTP for the local service, independent of the transport: the caller passes the
 * path (without its leading `/`, still percent-encoded), the method and the request headers, and writes the answer
 * out. Mirrors what CloudFront answers in front of the bucket, so pages embedding a screenshot behave the same on
 * one machine.
 */
import type { Storage } from './index.ts';
import { hashOf, isStorageKey, keyOfUrlPath } from './keys.ts';

export interface AssetResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: RequestHeaders, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(',') : value;
  }
  return undefined;
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored, `*` matches anything. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === etag;
  });
}

/** undefined for a path that is not a valid key or not stored: the caller answers its own 404. */
export async function serveAsset(
  storage: Storage,
  path: string,
  method: string,
  requestHeaders: RequestHeaders = {},
): Promise<AssetResponse | undefined> {
  // S3 decodes the request path the same way: a named key's URL has its name percent-encoded.
  const key = keyOfUrlPath(path);
  if (key === undefined || !isStorageKey(key)) return undefined;
  const verb = method.toUpperCase();
  if (verb !== 'GET' && verb !== 'HEAD') {
    return { statusCode: 405, headers: { allow: 'GET, HEAD' }, body: Buffer.alloc(0) };
  }
  const object = await storage.get(key);
  if (!object) return undefined;

  // The key is the content hash, so it is a strong validator as it stands.
  const etag = `"${hashOf(key)}"`;
  const headers: Record<string, string> = {
    etag,
    'cache-control': object.cacheControl,
    // Screenshots are meant to be embedded anywhere: <img>, canvas, fetch() from other origins.
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'x-content-type-options': 'nosniff',
  };
  if (matches(header(requestHeaders, 'if-none-match'), etag)) {
    return { statusCode: 304, headers, body: Buffer.alloc(0) };
  }
  headers['content-type'] = object.contentType;
  if (object.contentDisposition) headers['content-disposition'] = object.contentDisposition;
  // A stored Lighthouse HTML report runs its own scripts; here it shares the API's origin, so it runs in an opaque
  // one. (Deployed, reports are served from the asset CDN's own domain.)
  if (object.contentType.startsWith('text/html')) headers['content-security-policy'] = 'sandbox allow-scripts allow-popups';
  headers['content-length'] = String(object.body.length);
  return { statusCode: 200, headers, body: verb === 'HEAD' ? Buffer.alloc(0) : object.body };
}
