/**
 * The order of the pipeline's steps is checked against what each step declares it reads and writes
 * (lib/step-order.ts): the shipped order passes as lib/pipeline/index.ts loads, and an order that would have a
 * step read what is not yet written, or overwrite what an earlier step has already read, is refused.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Step } from '../../lib/pipeline/context.ts';
import { STEPS } from '../../lib/pipeline/index.ts';
import { inCheckedOrder as checked } from '../../lib/step-order.ts';

const inCheckedOrder = (steps: readonly Step[]) => checked(steps, "The pipeline's steps");

const step = (name: string): Step => {
  const found = STEPS.find((candidate) => candidate.name === name);
  assert.ok(found, `a step named ${name}`);
  return found;
};

/** STEPS with `name` taken out and put back right after `after`. */
function moved(name: string, after: string): Step[] {
  const rest = STEPS.filter((candidate) => candidate.name !== name);
  rest.splice(rest.indexOf(step(after)) + 1, 0, step(name));
  return rest;
}

const refused = (steps: readonly Step[], problem: string) =>
  assert.throws(() => inCheckedOrder(steps), { message: `The pipeline's steps are out of order: ${problem}.` });

describe('the order of the pipeline steps', () => {
  test('the shipped order keeps every declaration, with each part read written before', () => {
    assert.equal(inCheckedOrder(STEPS), STEPS);
    assert.deepEqual(
      STEPS.map(({ name }) => name),
      ['render', 'fetch', 'extract', 'client-shell', 'rules', 'iframe', 'insights', 'lighthouse', 'ping', 'store', 'palette'],
    );
  });

  test('a step before the step that writes what it reads is refused', () => {
    refused(moved('render', 'fetch'), 'fetch reads page, which no step before it writes');
    refused(moved('palette', 'ping'), 'palette reads data.captures, which no step before it writes');
    refused(moved('client-shell', 'fetch'), 'client-shell reads data.meta, which no step before it writes');
    refused(moved('ping', 'fetch'), 'ping reads media, which no step before it writes');
  });

  test('a step that overwrites what an earlier step has read is refused, unless it redoes that step', () => {
    // rules takes out of ctx.media the fields its own rules replace: the ping must not have read them already.
    refused(moved('rules', 'ping'), 'rules writes media, which ping before it has already read');
    // oEmbed discovery must see the page the client-side shell became.
    refused(moved('iframe', 'extract'), 'client-shell writes page, which iframe before it has already read');
    assert.equal(inCheckedOrder(moved('lighthouse', 'render')).length, STEPS.length, 'lighthouse reads nothing: anywhere will do');
  });
});
