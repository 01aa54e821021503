/**
 * A worker thread of the pool (lib/work/pool.ts): runs the tasks it is sent, one at a time, and answers each with its
 * value or its error. It loads its preloaded jobs first, then says it is ready. Everything else about its life — when
 * it starts, when it is terminated, what its failures mean — is the pool's.
 */
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { JOBS, type Host, type JobName } from '../jobs.ts';
import { errorData, errorFrom, type FromWorker, type ToWorker, type WorkerSetup } from './messages.ts';

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
const cleanups = new Set<() => Promise<void>>();
/** What task `task` has of this worker: its calls carry its number, so the pool answers them only while it runs. */
const hostFor = (task: number): Host => ({
  call: (name, ...args) =>
    new Promise((resolve, reject) => {
      const id = ++calls;
      pending.set(id, { resolve, reject });
      post({ kind: 'call', task, id, name, args });
    }),
  onClose: (cleanup) => void cleanups.add(cleanup),
});

/** What the jobs hold outside the thread, let go; the pool ends the worker once this says so, or after its grace. */
async function close(): Promise<void> {
  await Promise.allSettled([...cleanups].map((cleanup) => cleanup()));
  post({ kind: 'closed' });
}

/** Typed arrays the answer holds at its top level move to the main thread instead of being copied. */
const transferables = (value: unknown): TransferListItem[] =>
  value instanceof Uint8Array && value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? [value.buffer as ArrayBuffer] : [];

async function run(task: number, name: string, input: unknown): Promise<void> {
  try {
    const value = await (await load(name))(input, hostFor(task));
    post({ kind: 'done', value }, transferables(value));
  } catch (error) {
    post({ kind: 'failed', error: errorData(error) });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.kind === 'task') return void run(message.id, message.job, message.input);
  if (message.kind === 'close') return void close();
  const call = pending.get(message.id);
  pending.delete(message.id);
  if (message.error) call?.reject(errorFrom(message.error));
  else call?.resolve(message.value);
});

await Promise.all(setup.preload.map(load));
post({ kind: 'ready' });
