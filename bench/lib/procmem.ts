/** Memory and CPU time of a process tree, read from /proc (Linux): the Chromium browser process and every descendant. */
import { readdirSync, readFileSync } from 'node:fs';

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process exited meanwhile
  }
};

/** `/proc/<pid>/stat` is `pid (comm) state ppid …`; comm may hold spaces and parentheses. */
function parentOf(pid: number): number | undefined {
  const stat = read(`/proc/${pid}/stat`);
  const match = stat && /\) \S+ (\d+)/.exec(stat.slice(stat.lastIndexOf('(')));
  return match ? Number(match[1]) : undefined;
}

function allPids(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
}

/** `root` and its descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const walk = (pid: number): void => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return tree;
}

/** Direct children of `parent` whose command line matches `test` (e.g. this process's Chromium browsers). */
export function childProcesses(parent: number, test: (cmdline: string) => boolean): number[] {
  return allPids().filter((pid) => {
    if (parentOf(pid) !== parent) return false;
    const cmdline = read(`/proc/${pid}/cmdline`);
    return cmdline !== undefined && test(cmdline.replaceAll('\0', ' '));
  });
}

const kib = (text: string | undefined, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text ?? '')?.[1] ?? 0);

export interface TreeMemory {
  processes: number;
  /** Sum of VmRSS: shared pages (the binary, shared memory) counted once per process. */
  rssMiB: number;
  /** Sum of Pss: shared pages divided among the processes sharing them, so the sum is the tree's real share. */
  pssMiB: number;
}

export function treeMemory(root: number): TreeMemory {
  const pids = processTree(root);
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    rss += kib(read(`/proc/${pid}/status`), 'VmRSS');
    pss += kib(read(`/proc/${pid}/smaps_rollup`), 'Pss');
  }
  return { processes: pids.length, rssMiB: rss / 1024, pssMiB: pss / 1024 };
}

/** Clock ticks per second of /proc's times (USER_HZ, `getconf CLK_TCK`): 100 on every Linux build Glance runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) of `root` and its descendants, in milliseconds, counting children they have reaped
 * (cutime, cstime): Chromium's renderers exit with their page, and their time then shows in the zygote that reaped them.
 */
export function treeCpuMs(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    // Fields after `(comm) `: state is index 0, utime 11, stime 12, cutime 13, cstime 14 (proc(5) fields 14–17).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
