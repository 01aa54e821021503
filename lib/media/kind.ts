/** Media kinds told from a URL's file extension or a declared MIME type. */

const AUDIO = new Set(['mp3', 'mpga', 'm4a', 'aac', 'oga', 'ogg', 'opus', 'wav', 'flac', 'weba', 'mka', 'aif', 'aiff']);
const VIDEO = new Set([
  'mp4', 'm4v', 'webm', 'ogv', 'mov', 'mkv', 'avi', 'wmv', 'flv', 'mpg', 'mpeg', '3gp', 'm3u8', 'mpd', 'gifv',
]);

export type MediaKind = 'audio' | 'video';

export function extensionOf(url: string): string {
  const path = URL.parse(url)?.pathname ?? url.split(/[?#]/)[0] ?? '';
  const dot = path.lastIndexOf('.');
  return dot === -1 || dot < path.lastIndexOf('/') ? '' : path.slice(dot + 1).toLowerCase();
}

export function kindOfUrl(url: string): MediaKind | undefined {
  const ext = extensionOf(url);
  if (AUDIO.has(ext)) return 'audio';
  if (VIDEO.has(ext)) return 'video';
  return undefined;
}

/** `audio/mpeg` → audio, `video/mp4; codecs=…` → video, `application/x-mpegURL` → video (HLS). */
export function kindOfType(type: string | undefined): MediaKind | undefined {
  const mime = (type ?? '').split(';')[0]!.trim().toLowerCase();
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/') || mime === 'application/x-mpegurl' || mime === 'application/vnd.apple.mpegurl') {
    return 'video';
  }
  return undefined;
}
