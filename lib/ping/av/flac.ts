/**
 * FLAC duration: the STREAMINFO block, always the first after "fLaC", holds the sample rate (20 bits) and the
 * total number of samples (36 bits) — 0 when the encoder did not know it.
 */
import type { Facts } from '../source.ts';

export function flacFacts(head: Buffer): Facts {
  if (head.length < 26 || head.toString('latin1', 0, 4) !== 'fLaC' || (head[4]! & 0x7f) !== 0) return {};
  const rate = (head[18]! << 12) | (head[19]! << 4) | (head[20]! >> 4);
  const samples = (head[21]! & 0x0f) * 2 ** 32 + head.readUInt32BE(22);
  return rate > 0 && samples > 0 ? { duration: samples / rate } : {};
}
