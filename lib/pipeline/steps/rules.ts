/**
 * Custom `data` rules (lib/rules): run on the loaded page's DOM, the fetched HTML or the rendered one, whichever
 * this request loaded. Media-typed values are pinged here as the default media fields are (docs/CONTRACT.md §4):
 * same probe, same cache, same `ping` flags, so a dead URL falls through to the rule's next fallback.
 */
import { pingMedia } from '../../ping/index.ts';
import { Semaphore } from '../../time/semaphore.ts';
import { buildDocument } from '../../rules/dom.ts';
import type { RulesDeps } from '../../rules/index.ts';
import { ANSWER_RESERVE_MS } from '../../time/limits.ts';
import type { Step } from '../context.ts';
import { parsedPage } from '../parsed.ts';

/** Media probes of the rules of one request at once (the default fields' ping has its own bound). */
const PING_CONCURRENCY = 16;
/**
 * Media values pinged per answer (a `selectorAll` of images can yield thousands): past this they are dropped as
 * unreachable, never queued (issue 11 item 2). The answer's outbound allowance bounds them further.
 */
export const MAX_RULE_MEDIA = 32;

export const rules: Step = {
  name: 'rules',
  wants: ({ page, wanted }) => page !== undefined && wanted.rules !== undefined,
  async run(ctx) {
    const { page, wanted, options, budget, deps, timings } = ctx;
    if (!page || !wanted.rules) return;
    const slots = new Semaphore(PING_CONCURRENCY);
    const probeDeps = { policy: deps.config.policy, userAgent: deps.config.userAgent, resolver: deps.resolver, outbound: ctx.outbound, cache: deps.pingCache };
    const pingBudget = budget.slice(Infinity, ANSWER_RESERVE_MS);
    let pinged = 0;
    const media: RulesDeps['media'] = async (type, url) => {
      if (options.ping[type] && ++pinged > MAX_RULE_MEDIA) return null;
      return slots.run(async () => (await pingMedia({ [type]: [url] }, options.ping, pingBudget, probeDeps))[type] ?? null);
    };
    // Not HTML (JSON, text): selectors match nothing in an empty document; `attr` rules may still read the body.
    const document = (await parsedPage(ctx))?.dom ?? buildDocument('');
    // Loaded with the first request that has rules: Markdown's converter among them stays off every cold start.
    const { runRules } = await import('../../rules/index.ts');
    const values = await timings.measure('rules', () =>
      runRules(wanted.rules!, { document, url: page.url, body: page.content.kind === 'text' ? page.content.text : undefined, evaluated: ctx.evaluated }, { media }),
    );
    Object.assign(ctx.data, values);
    // A rule named like a default media field replaces it: nothing left for the ping step to overwrite.
    for (const name of Object.keys(values)) delete (ctx.media as Record<string, unknown>)[name];
  },
};
