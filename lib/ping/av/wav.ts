/**
 * WAV duration: a RIFF WAVE file's `fmt ` chunk gives the byte rate and its `data` chunk the length of the
 * samples, so the time is one over the other. Streaming writers leave the data size at 0 or 0xFFFFFFFF; the
 * file's own size stands in for it then.
 */
import type { Facts } from '../source.ts';

export function wavFacts(head: Buffer, total: number | undefined): Facts {
  if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') {
    return {};
  }
  let byteRate: number | undefined;
  // Chunks are word-aligned: an odd-sized chunk is followed by a pad byte.
  for (let at = 12; at + 8 <= head.length; at += 8 + head.readUInt32LE(at + 4) + (head.readUInt32LE(at + 4) & 1)) {
    const id = head.toString('latin1', at, at + 4);
    const size = head.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 20 <= head.length) byteRate = head.readUInt32LE(at + 16);
    if (id !== 'data') continue;
    if (!byteRate) return {};
    const available = total === undefined ? undefined : total - (at + 8);
    const length = size === 0 || size === 0xffffffff || (available !== undefined && size > available) ? available : size;
    return length ? { duration: length / byteRate } : {};
  }
  return {};
}
