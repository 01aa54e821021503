/** Small statistics for benchmark samples: every figure in the reports is a median, comparisons are ratios. */

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** The arithmetic mean; NaN for none. */
export const mean = (samples: readonly number[]): number => samples.reduce((sum, value) => sum + value, 0) / samples.length;

/** Nearest-rank percentile (p in 0…100) of unsorted samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  if (p === 50 && sorted.length % 2 === 0) return (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Milliseconds each call of `task` took, `runs` times in a row. */
export async function timeRuns(runs: number, task: (run: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await task(run);
    samples.push(performance.now() - started);
  }
  return samples;
}

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

export const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : 'n/a');

export const times = (ratio: number): string => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a');
