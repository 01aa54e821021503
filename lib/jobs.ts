/**
 * The jobs a worker runs (lib/work/worker.ts): every piece of CPU work over what a stranger controls that is not
 * the default extraction (docs/architecture.md → "Where CPU work runs"). Each entry loads its module on the job's
 * first task, or as the worker starts when the pool preloads it, and adapts it to the one calling shape: an input
 * that crosses threads by structured clone, and the functions the main thread lends the task.
 *
 * The main thread imports this file's types only: its modules are never loaded there.
 * Here, with the application's wiring, rather than in lib/work: the pool runs any job, and the jobs' own folders
 * (lib/browser among them) may use a pool without lib/work importing them back.
 */

/** What a job has of the worker it runs in. */
export interface Host {
  /** Calls a function the main thread lends the task, by name (lib/work/pool.ts answers it). */
  call(name: string, ...args: unknown[]): Promise<unknown>;
  /** Runs `cleanup` before the worker is ended: for what a job holds outside the thread, such as a child process. */
  onClose(cleanup: () => Promise<void>): void;
}

export const JOBS = {
  /** Custom `data` rules on the page's DOM, parsed here: media values are checked by the main thread's ping. */
  rules: async () => {
    const [{ rulesJob }, { loadDateParsers }] = await Promise.all([import('./rules/job.ts'), import('./extract/date-words.ts')]);
    // `type: date` rules read dates as the metadata does.
    await loadDateParsers();
    return (input: import('./rules/job.ts').RulesJob, host: Host) =>
      rulesJob(input, { media: (type, url) => host.call('media', type, url) });
  },
  /** `insights.technologies`: the fingerprint rules' regular expressions over the page's bounded signals. */
  technologies: async () => {
    const { detectTechnologies, loadEngine } = await import('./insights/technologies.ts');
    await loadEngine();
    return detectTechnologies;
  },
  /** The encoding of an undeclared page that is not UTF-8: chardet's statistics over its head (lib/fetch/charset.ts). */
  charset: async () => (await import('./fetch/charset.ts')).guessedEncoding,
  /** The adblock engine parsed from its lists (seconds of CPU), answered serialized. */
  adblockEngine: async () => (await import('./browser/adblock-engine.ts')).serializedEngine,
  /** A Lighthouse report, in a browser of the worker's own: its gathering and its audits' computation. */
  lighthouse: async () => {
    const { lighthouseJob, preload } = await import('./browser/lighthouse-job.ts');
    await preload();
    return (input: import('./browser/lighthouse-job.ts').LighthouseJob, host: Host) =>
      lighthouseJob(input, {
        resolve: async (hostname) => (await host.call('resolve', hostname)) as Awaited<ReturnType<import('./guard/lookup.ts').Resolver>>,
        onClose: (cleanup) => host.onClose(cleanup),
      });
  },
} as const;

export type JobName = keyof typeof JOBS;
type JobFunction<K extends JobName> = Awaited<ReturnType<(typeof JOBS)[K]>>;
export type JobInput<K extends JobName> = Parameters<JobFunction<K>>[0];
export type JobOutput<K extends JobName> = Awaited<ReturnType<JobFunction<K>>>;
