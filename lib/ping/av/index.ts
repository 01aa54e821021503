/** Duration (and, for video, picture size) from an audio or video container, by the container the bytes are. */
import type { Sniffed } from '../../media/sniff.ts';
import type { ByteSource, Facts } from '../source.ts';
import { flacFacts } from './flac.ts';
import { matroskaFacts } from './matroska.ts';
import { mp3Facts } from './mp3.ts';
import { mp4Facts } from './mp4.ts';
import { oggFacts } from './ogg.ts';
import { wavFacts } from './wav.ts';

const PARSERS: Partial<Record<Sniffed, (source: ByteSource) => Facts | Promise<Facts>>> = {
  mp3: mp3Facts,
  mp4: mp4Facts,
  m4a: mp4Facts,
  mov: mp4Facts,
  webm: (source) => matroskaFacts(source.head),
  mkv: (source) => matroskaFacts(source.head),
  ogg: oggFacts,
  opus: oggFacts,
  ogv: oggFacts,
  wav: (source) => wavFacts(source.head, source.total),
  flac: (source) => flacFacts(source.head),
};

export function avFacts(type: Sniffed, source: ByteSource): Facts | Promise<Facts> {
  return PARSERS[type]?.(source) ?? {};
}
