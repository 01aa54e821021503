/**
 * `duration` and `duration_pretty` as Microlink prints them. Its answers show a compact form — the largest
 * unit only, seconds rounded: 28.53 s → "29s", 30.04 s → "30s", a nine-minute video → "9m", 1502 s → "25m" —
 * which is pretty-ms's `compact` option as it behaved before v8 (seconds rounded rather than floored).
 */

/** Seconds to microseconds, as ffprobe prints durations (Microlink answers e.g. 28.533333). */
export const roundDuration = (seconds: number): number => Math.round(seconds * 1e6) / 1e6;

const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
] as const;

export function prettyDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return `${Math.floor(seconds / size)}${unit}`;
  }
  return `${Math.round(seconds)}s`;
}
