/**
 * A duration as people read it, largest unit first (`1d 2h 3m 4.5s`, `250ms`): the form of Microlink's
 * `x-cache-expired-at`, which its cache layer (cacheable-response) writes with pretty-ms's defaults.
 */
const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
] as const;

export function durationText(ms: number): string {
  const whole = Math.max(0, Math.floor(ms));
  if (whole < 1000) return `${whole}ms`;
  const parts: string[] = [];
  let left = whole;
  for (const [unit, size] of UNITS) {
    const count = Math.floor(left / size);
    if (count > 0) parts.push(`${count}${unit}`);
    left -= count * size;
  }
  // Seconds keep one decimal, cut rather than rounded: never more time than is left.
  const tenths = Math.floor(left / 100);
  if (tenths > 0) parts.push(`${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)}s`);
  return parts.join(' ');
}
