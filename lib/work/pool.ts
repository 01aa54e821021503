/**
 * The one way CPU work over what a stranger controls runs beyond the default extraction (docs/architecture.md →
 * "Where CPU work runs"): a few worker threads, each running one task at a time, so that work holds neither the
 * event loop every other request is served from nor anyone else's task.
 *
 * - A task runs within the budget it is given. When the budget ends first (the request's time ran out, or its answer
 *   was sent) the worker is terminated at once — V8 stops it even inside a regular expression — the task answers
 *   ETIMEOUT, and a fresh worker takes its place: no task outlives its request.
 * - A worker that crashes or runs out of its heap (resourceLimits) fails only the task it was running, whose request
 *   answers EFATAL with the cause logged, and is replaced.
 * - At most `size` tasks run; at most `maxWaiting` more wait, first come first served, and one more is answered EBUSY
 *   at once, as is a task still waiting when its budget ends and every task once the pool is closing.
 *
 * node:worker_threads directly rather than a pool package: the semantics above (one task per worker, a kill per
 * request deadline, calls back into the main thread) are most of what such a pool would be configured to do, and
 * piscina and tinypool load their own worker script from their package folder, which the Lambda bundle does not
 * carry (stacks/bundling.ts bundles lib/work/worker.ts as an entry of its own instead).
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { GlanceError } from '../errors.ts';
import { Budget } from '../time/budget.ts';
import { QueueFullError, Semaphore } from '../time/semaphore.ts';
import type { JobInput, JobName, JobOutput } from '../jobs.ts';
import { errorData, errorFrom, type FromWorker, type ToWorker, type WorkerSetup } from './messages.ts';

export interface WorkPoolOptions {
  /** Workers, each running one task at a time. */
  readonly size: number;
  /** Tasks that may wait for a worker; one more is refused with EBUSY. By default a few per worker, each a request
   *  that would otherwise wait in vain. */
  readonly maxWaiting?: number;
  /** Each worker's heap bounds: past them it is ended, and its task fails alone. */
  readonly resourceLimits?: ResourceLimits;
  /** Where the worker script is (tests and the source tree: worker.ts through tsx; the bundle: its own entry). */
  readonly script?: URL;
  /**
   * How long a worker being ended may take to let go of what its jobs hold outside the thread (Lighthouse's browser)
   * before it is terminated; 0, the default, terminates it at once, which is what CPU-bound jobs need.
   */
  readonly closeGraceMs?: number;
}

/**
 * Each worker's heap: the rules' DOM of a page at the 10 MB body limit takes a few hundred MB at most, and a worker past
 * this is ended with its task alone rather than the process running out of memory (tests/work/pool.test.ts).
 */
export const WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 768 };

/** Functions of this thread a task may call by name while it runs (a media check over the network). */
export type Calls = Readonly<Record<string, (...args: never[]) => Promise<unknown>>>;

export interface RunOptions {
  /** The task's deadline: when it ends, the worker is terminated and the task answers ETIMEOUT. */
  readonly budget: Budget;
  readonly calls?: Calls;
  /** Buffers of `input` moved to the worker instead of copied: the caller gives them up. */
  readonly transfer?: readonly ArrayBuffer[];
}

/** The worker script beside this module: the source file under tsx, the bundle's own entry once bundled. */
const defaultScript = (): URL =>
  new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './work-worker.mjs', import.meta.url);

/** Flags of this process that load code (tsx's hooks, in tests and from source), each followed by its value. */
const LOADERS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

/**
 * The process's flags a worker also needs: those that load code. Node hands a worker all of them by default, and a
 * process started with `--eval` would run its own script again in each worker.
 */
function workerExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (LOADERS.has(flag) && i + 1 < argv.length) kept.push(flag, argv[++i]!);
    else if ([...LOADERS].some((loader) => flag.startsWith(`${loader}=`))) kept.push(flag);
  }
  return kept;
}

/** One task as it is handed to a worker. */
interface TaskSpec {
  readonly job: JobName;
  readonly input: unknown;
  readonly calls: Calls;
  readonly transfer: readonly ArrayBuffer[];
}

interface Thread {
  readonly worker: Worker;
  /** Set once its preloaded jobs are loaded: a worker that dies before is not replaced until a task needs one. */
  ready: boolean;
  /** Settles as `ready` is set, or with the error that ended the worker first. */
  readonly started: Promise<void>;
  /** Resolves once the worker has let go of what its jobs held (its answer to `close`), or has exited. */
  readonly closed: Promise<void>;
  /** Set once it has exited or been told to. */
  dead: boolean;
  /** The running task's handler of what the worker says, and of its end. */
  task: { onMessage(message: FromWorker): void; onDeath(error: Error): void } | undefined;
}

const busy = (size: number, waiting: number): GlanceError =>
  new GlanceError('EBUSY', `The service is busy: ${size} workers are computing and ${waiting} requests are waiting. Retry shortly.`);

const noWorkerInTime = (): GlanceError =>
  new GlanceError('EBUSY', 'The service is busy: no worker became free within the request\'s budget. Retry shortly.');

const closing = (): GlanceError =>
  new GlanceError('EBUSY', 'This instance is shutting down and takes no new work. Retry: another instance will answer.');

/** What each job is, in an error's words. */
const TITLES: Readonly<Record<JobName, string>> = {
  rules: 'custom data rules',
  technologies: 'technology detection',
  charset: 'character encoding detection',
  adblockEngine: 'adblock engine build',
  lighthouse: 'Lighthouse report',
};

const overBudget = (job: JobName): GlanceError =>
  new GlanceError('ETIMEOUT', `The request's ${TITLES[job]} did not finish within its time and was stopped: raise \`timeout\`, or ask for less.`);

export class WorkPool {
  readonly #options: WorkPoolOptions;
  readonly #slots: Semaphore;
  readonly #idle: Thread[] = [];
  readonly #all = new Set<Thread>();
  /** Jobs every worker loads as it starts (set by `prepare`). */
  #preload: readonly JobName[] = [];
  /** Tasks given out so far: a task's number tells its calls from those of a task that answered already. */
  #tasks = 0;
  #closing = false;

  constructor(options: WorkPoolOptions) {
    this.#options = options;
    this.#slots = new Semaphore(options.size, { maxWaiting: options.maxWaiting ?? 8 * options.size });
  }

  /** Workers alive now (starting, idle or running a task). */
  get threads(): number {
    return this.#all.size;
  }

  /**
   * Starts every worker now, each loading `jobs` before it says it is ready, and resolves once they all are (the
   * local service's start-up waits for it): from then on no task pays for a worker's start or a module's load, and a
   * worker that is replaced loads them again before its next task. Without it, workers start on first need.
   */
  async prepare(jobs: readonly JobName[]): Promise<void> {
    this.#preload = jobs;
    while (this.#all.size < this.#options.size) this.#idle.push(this.#spawn());
    await Promise.all([...this.#all].map((thread) => thread.started));
  }

  /** Runs `job` on `input` in a worker, within `budget`. */
  async run<K extends JobName>(job: K, input: JobInput<K>, { budget, calls = {}, transfer = [] }: RunOptions): Promise<JobOutput<K>> {
    if (this.#closing) throw closing();
    // No time left: no worker is taken, and none is ended for it.
    if (budget.expired) throw overBudget(job);
    let release: () => void;
    try {
      release = await budget.within((signal) => this.#slots.acquire(signal));
    } catch (error) {
      if (error instanceof QueueFullError) throw busy(this.#slots.size, this.#slots.waiting);
      throw noWorkerInTime();
    }
    let thread: Thread | undefined;
    try {
      if (budget.expired) throw overBudget(job);
      thread = this.#idle.pop() ?? this.#spawn();
      const running = thread;
      return (await budget.within((signal) => this.#runOn(running, { job, input, calls, transfer }, signal))) as JobOutput<K>;
    } finally {
      release();
      if (thread && !thread.dead) this.#idle.push(thread);
      // A worker that was killed or died after starting well is replaced now, not on the next task's clock.
      else if (thread?.ready && !this.#closing && this.#preload.length > 0) this.#replace();
    }
  }

  /** Takes no new task (EBUSY), lets the running and waiting ones end (each within its budget), then ends every worker. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#slots.idle();
    await Promise.all([...[...this.#all].map((thread) => this.#kill(thread)), ...this.#killing]);
  }

  /** Workers being ended (a deadline's kill), which close() waits for too. */
  readonly #killing = new Set<Promise<void>>();

  #replace(): void {
    try {
      this.#idle.push(this.#spawn());
    } catch {
      // No thread could be started now: the next task starts one, and meets the error.
    }
  }

  #spawn(): Thread {
    const setup: WorkerSetup = { preload: this.#preload };
    const { script = defaultScript(), resourceLimits = WORKER_LIMITS } = this.#options;
    // Read at the first worker, not imported: a metadata request starts none, and init need not load it.
    const worker = new (process.getBuiltinModule('node:worker_threads').Worker)(script, { workerData: setup, resourceLimits, execArgv: workerExecArgv() });
    let started!: { resolve(): void; reject(error: Error): void };
    let closed!: () => void;
    const thread: Thread = {
      worker,
      ready: false,
      dead: false,
      task: undefined,
      started: new Promise<void>((resolve, reject) => (started = { resolve, reject })),
      closed: new Promise<void>((resolve) => (closed = resolve)),
    };
    thread.started.catch(() => undefined);
    this.#all.add(thread);
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'closed') return closed();
      if (message.kind !== 'ready') return thread.task?.onMessage(message);
      thread.ready = true;
      if (!thread.task) worker.unref();
      started.resolve();
    });
    worker.once('exit', () => closed());
    const died = (error: Error): void => {
      started.reject(error);
      if (thread.dead) return;
      thread.dead = true;
      this.#all.delete(thread);
      const at = this.#idle.indexOf(thread);
      if (at >= 0) this.#idle.splice(at, 1);
      thread.task?.onDeath(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`A worker exited with code ${code}.`)));
    return thread;
  }

  async #kill(thread: Thread): Promise<void> {
    thread.dead = true;
    this.#all.delete(thread);
    const { closeGraceMs = 0 } = this.#options;
    if (closeGraceMs > 0) {
      thread.worker.postMessage({ kind: 'close' } satisfies ToWorker);
      await Budget.cap(thread.closed, closeGraceMs, undefined);
    }
    await thread.worker.terminate();
  }

  #runOn(thread: Thread, { job, input, calls, transfer }: TaskSpec, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const end = (): void => {
        thread.task = undefined;
        signal.removeEventListener('abort', onAbort);
        // An idle worker never keeps the process alive; one starting or running a task does.
        if (thread.ready) thread.worker.unref();
      };
      const onAbort = (): void => {
        end();
        const killing = this.#kill(thread).catch(() => undefined);
        this.#killing.add(killing);
        void killing.finally(() => this.#killing.delete(killing));
        reject(overBudget(job));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const task = ++this.#tasks;
      thread.task = {
        onMessage: (message) => {
          if (message.kind === 'call') return this.#answerCall(thread, message, message.task === task ? calls : {});
          end();
          if (message.kind === 'done') resolve(message.value);
          else if (message.kind === 'failed') reject(errorFrom(message.error));
        },
        onDeath: (error) => {
          end();
          reject(new Error(`The worker running a ${TITLES[job]} died: ${error.message}`, { cause: error }));
        },
      };
      if (signal.aborted) return onAbort();
      thread.worker.ref();
      try {
        thread.worker.postMessage({ kind: 'task', id: task, job, input } satisfies ToWorker, transfer);
      } catch (error) {
        end();
        reject(error);
      }
    });
  }

  /** Answers a call of the running task; a call of a task that has already answered (`calls` empty) is refused. */
  #answerCall(thread: Thread, { id, name, args }: { id: number; name: string; args: readonly unknown[] }, calls: Calls): void {
    const reply = (message: ToWorker): void => {
      if (thread.dead) return;
      try {
        thread.worker.postMessage(message);
      } catch (error) {
        thread.worker.postMessage({ kind: 'reply', id, error: errorData(error) } satisfies ToWorker);
      }
    };
    const call = Object.hasOwn(calls, name) ? calls[name] : undefined;
    if (!call) return reply({ kind: 'reply', id, error: errorData(new Error(`No call is named ${name} for this task.`)) });
    Promise.resolve()
      .then(() => (call as (...args: unknown[]) => Promise<unknown>)(...args))
      .then(
        (value) => reply({ kind: 'reply', id, value }),
        (error: unknown) => reply({ kind: 'reply', id, error: errorData(error) }),
      );
  }
}
