/**
 * Durations as Microlink accepts them: whole milliseconds (`90000`) or a number with a unit (`90s`, `10m`,
 * `1.5h`, `1d`, `250ms`).
 */
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const PATTERN = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [, amount = '', unit] = match;
  // A bare number is milliseconds, and a fraction of a millisecond means nothing.
  if (unit === undefined && amount.includes('.')) return undefined;
  const ms = Math.round(Number(amount) * (UNITS[unit ?? 'ms'] ?? 1));
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** The shortest exact spelling of `ms` for messages: `60000` → `1m`, `90000` → `90s`. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNITS[unit] ?? 1;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
