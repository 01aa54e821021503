/**
 * The rules step's own unhappy path: the page is encoded for the worker a piece at a time (lib/text/pieces.ts), and a
 * budget that ends during the encoding is the rules' ETIMEOUT, as for any task past its time — not an EFATAL.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlanceError } from '../../lib/errors.ts';
import type { Context } from '../../lib/pipeline/context.ts';
import { rules } from '../../lib/pipeline/steps/rules.ts';
import { Budget } from '../../lib/time/budget.ts';
import { ANSWER_RESERVE_MS } from '../../lib/time/limits.ts';
import { Timings } from '../../lib/time/timings.ts';
import { WorkPool } from '../../lib/work/pool.ts';

test('a budget that ends while the page is encoded for the worker answers ETIMEOUT', async () => {
  const work = new WorkPool({ size: 1 });
  try {
    // 20 MB of text to encode; the work budget (the request's less its answer reserve) has 5 ms.
    const html = Array.from({ length: 40 }, (_, i) => `<p>${'é'.repeat(500_000)}${i}</p>`);
    const ctx = {
      page: { url: 'https://site.test/', statusCode: 200, headers: {}, redirects: [], content: { kind: 'html', html } },
      wanted: { rules: { x: [{ selector: ['p'], all: false, attr: ['text'], rules: undefined, type: ['string'], evaluate: undefined }] } },
      options: { ping: {} },
      budget: new Budget(ANSWER_RESERVE_MS + 5),
      deps: { config: {}, work },
      timings: new Timings(),
      data: {},
      media: {},
    } as unknown as Context;
    const wanted = rules.wants(ctx);
    assert.ok(wanted);
    const error = await rules.run(ctx, wanted).then(() => undefined, (failure: unknown) => failure);
    assert.ok(error instanceof GlanceError, `a GlanceError, not ${String(error)}`);
    assert.equal(error.code, 'ETIMEOUT');
  } finally {
    await work.close();
  }
});
