/** The processes a test watches: browsers started below a process it spawned. */
import { execFileSync } from 'node:child_process';

/**
 * The browsers below `pid`: Chromium processes whose parent is not itself Chromium. A browser's renderers and
 * helpers (its own children, started and ended as pages come and go) are not new browsers.
 */
export function browsersUnder(pid: number): Set<number> {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .map(([child, parent, ...name]) => ({ pid: Number(child), ppid: Number(parent), name: name.join(' ') }));
  const names = new Map(table.map((row) => [row.pid, row.name]));
  const isChromium = (name: string | undefined) => name !== undefined && /chrom|headless/i.test(name);
  const found = new Set<number>();
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = table.filter((row) => frontier.includes(row.ppid));
    for (const row of next) if (isChromium(row.name) && !isChromium(names.get(row.ppid))) found.add(row.pid);
    frontier = next.map((row) => row.pid);
  }
  return found;
}

/** Every browser that appears below `pid` and was not in `before`, watched until `stop` is called. */
export function watchLaunches(pid: number, before: ReadonlySet<number>): { stop(): Promise<Set<number>> } {
  const launched = new Set<number>();
  let watching = true;
  const watch = (async () => {
    while (watching) {
      for (const child of browsersUnder(pid)) if (!before.has(child)) launched.add(child);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      watching = false;
      await watch;
      return launched;
    },
  };
}
