/**
 * The order of a render's page steps is checked against what each declares it reads and writes of the page job and
 * which steps it follows (lib/step-order.ts): the shipped order passes as lib/browser/page-steps.ts loads, and an
 * order that would load before the blocking is on, read what is not yet there, or replace the document before what
 * reads it is refused, naming the broken declaration.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PAGE_STEPS, type PageStep } from '../../lib/browser/page-steps.ts';
import { inCheckedOrder } from '../../lib/step-order.ts';

const step = (name: string): PageStep => {
  const found = PAGE_STEPS.find((candidate) => candidate.name === name);
  assert.ok(found, `a page step named ${name}`);
  return found;
};

/** PAGE_STEPS with the steps named `a` and `b` swapped. */
function swapped(a: string, b: string): PageStep[] {
  const steps = [...PAGE_STEPS];
  const [i, j] = [steps.indexOf(step(a)), steps.indexOf(step(b))];
  [steps[i], steps[j]] = [steps[j]!, steps[i]!];
  return steps;
}

const refused = (steps: readonly PageStep[], problem: string) =>
  assert.throws(() => inCheckedOrder(steps, 'The page steps'), { message: `The page steps are out of order: ${problem}.` });

describe('the order of the page steps', () => {
  test('the shipped order keeps every declaration', () => {
    assert.equal(inCheckedOrder(PAGE_STEPS, 'The page steps'), PAGE_STEPS);
    assert.deepEqual(
      PAGE_STEPS.map(({ name }) => name),
      ['selectors', 'adblock', 'navigate', 'actions', 'consent', 'html', 'evaluate', 'codeScheme', 'screenshot', 'pdf', 'overlay'],
    );
  });

  /** Two steps swapped, and the broken declaration the check names. */
  const swaps: ReadonlyArray<readonly [string, string, string]> = [
    // What a step reads, no step before it writes.
    ['navigate', 'actions', 'actions reads loading, which no step before it writes'],
    ['adblock', 'consent', 'consent reads consent, which no step before it writes'],
    ['screenshot', 'overlay', 'overlay reads captured.screenshot, which no step before it writes'],
    // Nothing loads before the selectors are checked and the blocking is on.
    ['selectors', 'navigate', 'navigate follows selectors, which comes after it'],
    ['adblock', 'navigate', 'navigate follows adblock, which comes after it'],
    // Nothing replaces the document before what reads it; no capture before the consent banners are answered.
    ['html', 'codeScheme', 'codeScheme follows html, which comes after it'],
    ['pdf', 'overlay', 'overlay follows pdf, which comes after it'],
    ['consent', 'screenshot', 'screenshot follows consent, which comes after it'],
  ];
  for (const [a, b, problem] of swaps) {
    test(`${a} and ${b} swapped is refused: ${problem}`, () => refused(swapped(a, b), problem));
  }

  test('a step that follows a step the list does not have is refused, and a step that overwrites what was read', () => {
    refused(PAGE_STEPS.filter(({ name }) => name !== 'evaluate'), 'codeScheme follows evaluate, which is no step');
    const reload: PageStep = { name: 'reload', reads: [], writes: ['navigation'], wants: () => undefined, run: async () => undefined };
    refused([...PAGE_STEPS, reload], 'reload writes navigation, which codeScheme before it has already read');
  });
});
