/**
 * The file types Glance knows, in one table: each extension's kind, the MIME types that name it (the canonical one
 * first), and the `type` a media object reports for it (docs/CONTRACT.md §3). Every other view — type from a content
 * type or a URL, audio-or-video from a link, a stored asset's content type, which sniffed types are images — is
 * read from it.
 */
export type FileKind = 'image' | 'audio' | 'video' | 'document';

interface FileType {
  readonly kind: FileKind;
  /** MIME types that name it, the canonical one first. */
  readonly mimes: readonly string[];
  /** The media object's `type`: the extension itself, another spelling's canonical one, or null for extensions
   *  that say only the kind (formats Glance does not name, and HEIC, which only its bytes name). */
  readonly type: string | null;
}

const row = (kind: FileKind, mimes: readonly string[] = []) => ({ kind, mimes });
const spelling = (kind: FileKind, type: string) => ({ kind, mimes: [], type });
const kindOnly = (kind: FileKind) => ({ kind, mimes: [], type: null });

const TABLE: Readonly<Record<string, Omit<FileType, 'type'> & { type?: string | null }>> = {
  png: row('image', ['image/png', 'image/apng']),
  jpg: row('image', ['image/jpeg', 'image/pjpeg']),
  jpeg: spelling('image', 'jpg'),
  jpe: spelling('image', 'jpg'),
  jfif: spelling('image', 'jpg'),
  gif: row('image', ['image/gif']),
  webp: row('image', ['image/webp']),
  avif: row('image', ['image/avif']),
  svg: row('image', ['image/svg+xml']),
  ico: row('image', ['image/x-icon', 'image/vnd.microsoft.icon']),
  bmp: row('image', ['image/bmp']),
  tiff: row('image', ['image/tiff']),
  tif: spelling('image', 'tiff'),
  heic: kindOnly('image'),

  mp4: row('video', ['video/mp4']),
  webm: row('video', ['video/webm']),
  ogv: row('video', ['video/ogg']),
  mov: row('video', ['video/quicktime']),
  m3u8: row('video', ['application/vnd.apple.mpegurl', 'application/x-mpegurl']),
  mkv: row('video'),
  m4v: row('video'),
  ...Object.fromEntries(['avi', 'wmv', 'flv', 'mpg', 'mpeg', '3gp', 'mpd', 'gifv'].map((ext) => [ext, kindOnly('video')])),

  mp3: row('audio', ['audio/mpeg', 'audio/mp3']),
  m4a: row('audio', ['audio/mp4', 'audio/x-m4a']),
  aac: row('audio', ['audio/aac']),
  ogg: row('audio', ['audio/ogg']),
  opus: row('audio', ['audio/opus']),
  wav: row('audio', ['audio/wav', 'audio/x-wav', 'audio/wave']),
  weba: row('audio', ['audio/webm']),
  flac: row('audio', ['audio/flac']),
  ...Object.fromEntries(['mpga', 'oga', 'mka', 'aif', 'aiff'].map((ext) => [ext, kindOnly('audio')])),

  pdf: row('document', ['application/pdf']),
};

const BY_EXTENSION: ReadonlyMap<string, FileType> = new Map(
  Object.entries(TABLE).map(([ext, entry]) => [ext, { ...entry, type: entry.type === undefined ? ext : entry.type }]),
);
const BY_MIME: ReadonlyMap<string, string> = new Map(
  [...BY_EXTENSION].flatMap(([ext, { mimes }]) => mimes.map((mime): [string, string] => [mime, ext])),
);

/** `Text/HTML; charset=utf-8` → `text/html`. */
export const essence = (contentType: string | undefined): string | undefined =>
  contentType?.split(';', 1)[0]?.trim().toLowerCase();

export const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

export const kindOfExtension = (ext: string): FileKind | undefined => BY_EXTENSION.get(ext)?.kind;

/** The canonical MIME type of an extension Glance names by one (`jpeg` is `jpg`'s: image/jpeg). */
export function mimeOf(ext: string): string | undefined {
  const type = BY_EXTENSION.get(ext)?.type;
  return type ? BY_EXTENSION.get(type)?.mimes[0] : undefined;
}

/** The media object's `type` for a content type, or null for types Glance does not name. */
export function typeFromContentType(contentType: string | undefined): string | null {
  const mime = essence(contentType);
  return (mime && BY_MIME.get(mime)) ?? null;
}

/** The media object's `type` from the extension in the URL's path; null when it names no type. */
export function typeFromUrl(url: string): string | null {
  const pathname = URL.parse(url)?.pathname;
  const ext = pathname === undefined ? undefined : /\.([a-z0-9]{2,5})$/i.exec(pathname)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION.get(ext)?.type) ?? null;
}

export type MediaKind = 'audio' | 'video';

const audioOrVideo = (kind: FileKind | undefined): MediaKind | undefined =>
  kind === 'audio' || kind === 'video' ? kind : undefined;

/** A link's extension, lower-case; relative links too. */
export function extensionOf(url: string): string {
  const path = URL.parse(url)?.pathname ?? url.split(/[?#]/)[0] ?? '';
  const dot = path.lastIndexOf('.');
  return dot === -1 || dot < path.lastIndexOf('/') ? '' : path.slice(dot + 1).toLowerCase();
}

export const kindOfUrl = (url: string): MediaKind | undefined => audioOrVideo(kindOfExtension(extensionOf(url)));

/** `audio/mpeg` → audio, `video/mp4; codecs=…` → video, `application/x-mpegURL` → video (HLS). */
export function kindOfType(type: string | undefined): MediaKind | undefined {
  const mime = essence(type) ?? '';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  const ext = BY_MIME.get(mime);
  return ext === undefined ? undefined : audioOrVideo(kindOfExtension(ext));
}
