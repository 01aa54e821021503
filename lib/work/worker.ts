/**
 * A worker thread of the pool (lib/work/pool.ts): runs the tasks it is sent, one at a time, and answers each with its
 * value or its error. It loads its preloaded jobs first, then says it is ready. Everything else about its life — when
 * it starts, when it is terminated, what its failures mean — is the pool's.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { JOBS, type Host, type JobName } from './jobs.ts';
import { errorData, errorFrom, type FromWorker, type ToWorker, type WorkerSetup } from './messages.ts';

/**
 * A worker's CPU work gives way to the event loop that answers everyone: on Linux (Lambda, the local service's usual
 * home) each thread has a nice value of its own, and this one's is raised, so on a machine whose cores are all busy the
 * main thread is scheduled first (bench/RESULTS.md, stall). Elsewhere it runs at the process's priority.
 */
const NICENESS = 10;

function yieldToMainThread(): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (thread > 0) setPriority(thread, NICENESS);
  } catch {
    // No /proc/thread-self (not Linux): the worker keeps the process's priority.
  }
}

yieldToMainThread();
const port = parentPort!;
const setup = workerData as WorkerSetup;
const post = (message: FromWorker, transfer?: readonly TransferListItem[]): void => port.postMessage(message, transfer);

type Job = (input: unknown, host: Host) => unknown;
const loaded = new Map<string, Promise<Job>>();
const load = (name: string): Promise<Job> => {
  let job = loaded.get(name);
  if (!job) {
    if (!Object.hasOwn(JOBS, name)) return Promise.reject(new Error(`No job is named ${name}.`));
    job = JOBS[name as JobName]() as Promise<Job>;
    loaded.set(name, job);
  }
  return job;
};

const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let calls = 0;
const host: Host = {
  call: (name, ...args) =>
    new Promise((resolve, reject) => {
      const id = ++calls;
      pending.set(id, { resolve, reject });
      post({ kind: 'call', id, name, args });
    }),
};

/** Typed arrays the answer holds at its top level move to the main thread instead of being copied. */
const transferables = (value: unknown): TransferListItem[] =>
  value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? [value.buffer as ArrayBuffer] : [];

async function run(name: string, input: unknown): Promise<void> {
  try {
    const value = await (await load(name))(input, host);
    post({ kind: 'done', value }, transferables(value));
  } catch (error) {
    post({ kind: 'failed', error: errorData(error) });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.kind === 'task') {
    void run(message.job, message.input);
    return;
  }
  const call = pending.get(message.id);
  pending.delete(message.id);
  if (message.error) call?.reject(errorFrom(message.error));
  else call?.resolve(message.value);
});

await Promise.all(setup.preload.map(load));
post({ kind: 'ready' });
