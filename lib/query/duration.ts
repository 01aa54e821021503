/**
 * Durations as Microlink accepts them: parsed by the `ms` package, as Microlink itself does — whole milliseconds
 * (`90000`) or a number with a unit in any of its spellings (`90s`, `90secs`, `10 minutes`, `1.5h`, `1day`,
 * `2w`, `250ms`).
 */
import ms from 'ms';

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  // A bare number is milliseconds, and a fraction of a millisecond means nothing; `ms` caps its input at 100 chars.
  if (/^[\d.]+$/.test(trimmed) && trimmed.includes('.')) return undefined;
  if (trimmed.startsWith('-') || trimmed.length > 100) return undefined;
  let value: number;
  try {
    value = ms(trimmed as ms.StringValue);
  } catch {
    return undefined;
  }
  if (!Number.isFinite(value)) return undefined;
  const rounded = Math.round(value);
  return Number.isSafeInteger(rounded) ? rounded : undefined;
}

const UNITS = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const;

/** The shortest exact spelling of `ms` for messages: `60000` → `1m`, `90000` → `90s`. */
export function formatDuration(value: number): string {
  for (const [unit, size] of UNITS) {
    if (value >= size && value % size === 0) return `${value / size}${unit}`;
  }
  return `${value}ms`;
}
