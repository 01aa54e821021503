/** Races a promise against a timer that is always cleared, so a finished race keeps no timer alive. */
export async function capped<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), Math.max(0, ms))));
  try {
    return await Promise.race([work, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
