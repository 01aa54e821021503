/**
 * The order of a list of steps, checked against what each declares: the pipeline's steps (lib/pipeline/index.ts) and a
 * render's page steps (lib/browser/page-steps.ts). A step runs after some step that writes each part it reads, and
 * after every step it follows; no step writes a part an earlier step has already read (that step would have read it
 * unwritten or stale) unless it declares it redoes that step's work. Checked once, as the list's module loads: an
 * order that breaks a declaration never serves a request.
 */

/** What a step declares of its place among the others; `Part` names what steps hand on to later ones. */
export interface Declared<Part extends string = string> {
  readonly name: string;
  /** The parts it takes from earlier steps. */
  readonly reads: readonly Part[];
  /** The parts it leaves for later steps. */
  readonly writes: readonly Part[];
  /** Earlier steps whose work this one does again over what it writes (prerender=auto's render and extraction). */
  readonly redoes?: readonly string[];
  /** Steps it must come after for what they do that no part names (a page's document read before it is replaced). */
  readonly follows?: readonly string[];
}

/**
 * A step over a `Job` (the pipeline's context, a render's page job): `wants` answers what its work is about, narrowed
 * (the settings asked for, what an earlier step left), or `undefined` for no work; `run` gets that answer and never
 * tests it again.
 */
export interface Step<Job, Part extends string, Input> extends Declared<Part> {
  wants(job: Job): Input | undefined;
  run(job: Job, input: Input): Promise<void>;
}

/** Runs, in order, the steps that have work to do, each with what its `wants` answered. */
export async function runSteps<Job>(steps: readonly Step<Job, string, unknown>[], job: Job): Promise<void> {
  for (const step of steps) {
    const input = step.wants(job);
    if (input !== undefined) await step.run(job, input);
  }
}

/** The first broken declaration of `steps`, in words; undefined when the order keeps them all. */
export function orderProblem(steps: readonly Declared[]): string | undefined {
  for (const [index, step] of steps.entries()) {
    const earlier = steps.slice(0, index);
    for (const part of step.reads) {
      if (!earlier.some((before) => before.writes.includes(part))) return `${step.name} reads ${part}, which no step before it writes`;
    }
    for (const name of step.follows ?? []) {
      if (earlier.some((before) => before.name === name)) continue;
      return steps.some((other) => other.name === name) ? `${step.name} follows ${name}, which comes after it` : `${step.name} follows ${name}, which is no step`;
    }
    for (const part of step.writes) {
      const reader = earlier.find((before) => before.reads.includes(part) && !step.redoes?.includes(before.name));
      if (reader) return `${step.name} writes ${part}, which ${reader.name} before it has already read`;
    }
  }
  return undefined;
}

/** `steps` as they are, or an error naming the declaration their order breaks; `what` names the list in it. */
export function inCheckedOrder<S extends Declared>(steps: readonly S[], what: string): readonly S[] {
  const problem = orderProblem(steps);
  if (problem) throw new Error(`${what} are out of order: ${problem}.`);
  return steps;
}
