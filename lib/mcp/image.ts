/**
 * The `screenshot` tool's image, bounded in bytes: a capture within the bound is sent as it is; a larger one (a long
 * full-page capture) as a smaller JPEG rendition, scaled until it fits. Clients pass the image to a model, whose
 * inputs are bounded too: no side is sent past MAX_SIDE. The resize runs in libvips on libuv's threads, never the
 * event loop, stopped by libvips at the request's deadline (as lib/palette/decode.ts decodes), and the capture's
 * header decides before a pixel is decoded (lib/media/decode-bounds.ts).
 */
import { GlanceError } from '../errors.ts';
import { decodable, MAX_DECODE_PIXELS } from '../media/decode-bounds.ts';
import { loadSharp } from '../media/sharp.ts';
import { sniff } from '../media/sniff.ts';
import type { Budget } from '../time/budget.ts';

/** The longest side sent: Anthropic's API refuses images past 8000 pixels a side. */
export const MAX_SIDE = 8000;
/** JPEG quality of a rendition: text stays legible at it. */
const QUALITY = 80;
/** Tries at ever smaller scales before giving up: the first is a good guess (bytes grow with the pixels). */
const TRIES = 4;

export interface Rendition {
  readonly bytes: Buffer;
  readonly mimeType: string;
  readonly width: number;
  readonly height: number;
  /** Whether these are not the stored capture's own bytes. */
  readonly resized: boolean;
}

const MIME = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;

const tooLarge = (maxBytes: number): GlanceError =>
  new GlanceError('ETOOLARGE', `The screenshot has no rendition within the image bound of ${maxBytes} bytes.`);

export async function boundedImage(capture: Buffer, maxBytes: number, budget: Budget): Promise<Rendition> {
  const type = sniff(capture);
  if (type !== 'png' && type !== 'jpg' && type !== 'webp') throw new GlanceError('EFATAL', 'The stored screenshot is not an image Glance made.');
  const sharp = await loadSharp();
  const options = { limitInputPixels: MAX_DECODE_PIXELS[type] };
  const { width = 0, height = 0 } = await sharp(capture, options).metadata();
  if (!decodable(type, width, height)) throw tooLarge(maxBytes);
  if (capture.length <= maxBytes && Math.max(width, height) <= MAX_SIDE) {
    return { bytes: capture, mimeType: MIME[type], width, height, resized: false };
  }
  // Bytes grow about as the pixels do: a side scaled by the square root of the ratio, a little under it.
  let scale = Math.min(MAX_SIDE / Math.max(width, height), 0.9 * Math.sqrt(maxBytes / capture.length), 1);
  for (let attempt = 0; attempt < TRIES; attempt++, scale *= 0.7) {
    const size = { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
    const seconds = Math.max(1, Math.floor(budget.remaining() / 1000));
    const work = sharp(capture, options).timeout({ seconds }).resize(size.width, size.height, { fit: 'fill' }).flatten({ background: '#ffffff' }).jpeg({ quality: QUALITY }).toBuffer();
    const bytes = await budget.race(work, () => {
      throw new GlanceError('ETIMEOUT', 'The request ran out of time while the screenshot was made smaller.');
    });
    if (bytes.length <= maxBytes) return { bytes, mimeType: 'image/jpeg', ...size, resized: true };
  }
  throw tooLarge(maxBytes);
}
