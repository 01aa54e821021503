/**
 * The order of the pipeline's steps, checked against what each declares (lib/pipeline/context.ts, Step): a step runs
 * after some step that writes each part it reads, and no step writes a part an earlier step has already read (that
 * step would have read it unwritten or stale) unless it declares it redoes that step's work. Checked once, when
 * lib/pipeline/index.ts loads: an order that breaks a declaration never serves a request.
 */
import type { Step } from './context.ts';

/** The first broken declaration of `steps`, in words; undefined when the order keeps them all. */
export function orderProblem(steps: readonly Step[]): string | undefined {
  for (const [index, step] of steps.entries()) {
    const earlier = steps.slice(0, index);
    for (const part of step.reads) {
      if (!earlier.some((before) => before.writes.includes(part))) return `${step.name} reads ${part}, which no step before it writes`;
    }
    for (const part of step.writes) {
      const reader = earlier.find((before) => before.reads.includes(part) && !step.redoes?.includes(before.name));
      if (reader) return `${step.name} writes ${part}, which ${reader.name} before it has already read`;
    }
  }
  return undefined;
}

/** `steps` as they are, or an error naming the declaration their order breaks. */
export function inCheckedOrder(steps: readonly Step[]): readonly Step[] {
  const problem = orderProblem(steps);
  if (problem) throw new Error(`The pipeline's steps are out of order: ${problem}.`);
  return steps;
}
