/**
 * Pixel size of the PNG and JPEG images Chromium encodes, read from their headers: the reported width and
 * height are the stored image's own, whatever rounding Chromium applied to a clip.
 */

/** PNG: the IHDR chunk follows the 8-byte signature (RFC 2083 §4.1.1). */
function pngSize(image: Buffer): { width: number; height: number } | undefined {
  if (image.length < 24 || image.readUInt32BE(0) !== 0x89504e47 || image.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: image.readUInt32BE(16), height: image.readUInt32BE(20) };
}

/** JPEG: the first start-of-frame segment (SOF0–SOF15 except DHT, JPG and DAC) holds height then width. */
function jpegSize(image: Buffer): { width: number; height: number } | undefined {
  if (image.length < 4 || image[0] !== 0xff || image[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 <= image.length) {
    if (image[offset] !== 0xff) return undefined;
    const marker = image[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = image.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: image.readUInt16BE(offset + 5), width: image.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

export function imageSize(image: Buffer): { width: number; height: number } {
  const size = pngSize(image) ?? jpegSize(image);
  if (!size) throw new Error('Chromium returned an image that is neither PNG nor JPEG');
  return size;
}
