/**
 * Sizes and durations as Microlink prints them (`size_pretty`, `duration_pretty`).
 */

/** Sizes: 1000-based, two decimals past bytes (`"315 B"`, `"4.12 kB"`, `"1.5 MB"`). */
const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

export function prettyBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const shown = unit === 0 ? String(Math.round(value)) : String(Number(value.toFixed(2)));
  return `${shown} ${UNITS[unit]}`;
}

/**
 * Durations: Microlink's answers show a compact form — the largest unit only, seconds rounded: 28.53 s → "29s", 30.04 s → "30s", a nine-minute video → "9m", 1502 s → "25m" —
 * which is pretty-ms's `compact` option as it behaved before v8 (seconds rounded rather than floored).
 */

/** Seconds to microseconds, as ffprobe prints durations (Microlink answers e.g. 28.533333). */
export const roundDuration = (seconds: number): number => Math.round(seconds * 1e6) / 1e6;

const TIME_UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
] as const;

export function prettyDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  for (const [unit, size] of TIME_UNITS) {
    if (seconds >= size) return `${Math.floor(seconds / size)}${unit}`;
  }
  return `${Math.round(seconds)}s`;
}
