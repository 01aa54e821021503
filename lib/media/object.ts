/**
 * Media objects (docs/CONTRACT.md §3): `{ url, type, ... }` where `type` is the file extension. Until a URL is pinged,
 * its type comes from the extension in its path; a fetched response's content type is more reliable.
 */
import { prettyBytes } from './pretty.ts';

export interface MediaObject {
  url: string;
  type: string | null;
  [key: string]: unknown;
}

/** Content type → canonical extension, for the media kinds Glance reports. */
const TYPE_BY_MIME: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/apng': 'png',
  'image/jpeg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/ogg': 'ogv',
  'video/quicktime': 'mov',
  'application/vnd.apple.mpegurl': 'm3u8',
  'application/x-mpegurl': 'm3u8',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/webm': 'weba',
  'audio/flac': 'flac',
  'application/pdf': 'pdf',
};

const ALIASES: Readonly<Record<string, string>> = { jpeg: 'jpg', jpe: 'jpg', jfif: 'jpg', tif: 'tiff', htm: 'html' };

const KNOWN_EXTENSIONS = new Set([...Object.values(TYPE_BY_MIME), 'jpeg', 'jpe', 'jfif', 'tif', 'mkv', 'm4v']);

export function typeFromContentType(contentType: string | undefined): string | null {
  const mime = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return (mime && TYPE_BY_MIME[mime]) ?? null;
}

export function typeFromUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const ext = /\.([a-z0-9]{2,5})$/i.exec(pathname)?.[1]?.toLowerCase();
  if (!ext || !KNOWN_EXTENSIONS.has(ext)) return null;
  return ALIASES[ext] ?? ext;
}

export const mediaFromUrl = (url: string): MediaObject => ({ url, type: typeFromUrl(url) });

/** Our own stored assets are known, so their object is complete without a ping (docs/CONTRACT.md §4.6). */
export const mediaFromStored = (stored: { url: string; size: number; contentType: string }): MediaObject => ({
  url: stored.url,
  type: typeFromContentType(stored.contentType),
  size: stored.size,
  size_pretty: prettyBytes(stored.size),
});
