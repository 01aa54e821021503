/** Per-request span timings, answered as `server-timing` (https://www.w3.org/TR/server-timing/). */
export class Timings {
  readonly #spans: Array<{ name: string; ms: number }> = [];

  async measure<T>(name: string, work: () => Promise<T> | T): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - start);
    }
  }

  add(name: string, ms: number): void {
    this.#spans.push({ name, ms });
  }

  get(name: string): number | undefined {
    return this.#spans.find((span) => span.name === name)?.ms;
  }

  /** Each span's duration in ms, rounded to 0.1 (a repeated name keeps its last). */
  spans(): Record<string, number> {
    return Object.fromEntries(this.#spans.map(({ name, ms }) => [name, Math.round(ms * 10) / 10]));
  }

  header(totalMs: number): string {
    return [...this.#spans, { name: 'total', ms: totalMs }]
      .map(({ name, ms }) => `${name};dur=${ms.toFixed(1)}`)
      .join(', ');
  }
}
