/** Sizes as Microlink prints them: 1000-based, two decimals past bytes (`"315 B"`, `"4.12 kB"`, `"1.5 MB"`). */
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
