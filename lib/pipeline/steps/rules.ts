/**
 * Custom `data` rules (lib/rules), run in a worker (lib/work/) on the loaded page — the fetched HTML or the rendered
 * one, whichever this request loaded — within the request's budget. Media-typed values are pinged here, on the main
 * thread, as the default media fields are (docs/CONTRACT.md §4): same probe, same cache, same `ping` flags, so a dead
 * URL falls through to the rule's next fallback.
 */
import { pingMedia } from '../../ping/index.ts';
import { utf8Pieces } from '../../text/pieces.ts';
import type { MediaType } from '../../rules/types.ts';
import { Semaphore } from '../../time/semaphore.ts';
import { ANSWER_RESERVE_MS } from '../../time/limits.ts';
import type { LoadedPage } from '../../fetch/document.ts';
import type { DataRules } from '../../rules/rule.ts';
import type { Step } from '../context.ts';

/** Media probes of the rules of one request at once (the default fields' ping has its own bound). */
const PING_CONCURRENCY = 16;
/**
 * Media values pinged per answer (a `selectorAll` of images can yield thousands): past this they are dropped as
 * unreachable, never queued (issue 11 item 2). The answer's outbound allowance bounds them further.
 */
export const MAX_RULE_MEDIA = 32;

/** Reads `media` to take out the fields its rules replace. */
export const rules: Step<{ page: LoadedPage; rules: DataRules }> = {
  name: 'rules',
  reads: ['page', 'evaluated', 'media'],
  writes: ['data.rules', 'media'],
  wants: ({ page, wanted }) => (page && wanted.rules ? { page, rules: wanted.rules } : undefined),
  async run(ctx, { page, rules: dataRules }) {
    const { options, budget, deps, timings } = ctx;
    const slots = new Semaphore(PING_CONCURRENCY);
    const probeDeps = { policy: deps.config.policy, userAgent: deps.config.userAgent, resolver: deps.resolver, outbound: ctx.outbound, hop: ctx.hop, nestedProof: deps.nestedProof, cache: deps.pingCache };
    const workBudget = budget.slice(Infinity, ANSWER_RESERVE_MS);
    let pinged = 0;
    const media = async (type: MediaType, url: string): Promise<unknown> => {
      if (options.ping[type] && ++pinged > MAX_RULE_MEDIA) return null;
      return slots.run(async () => (await pingMedia({ [type]: [url] }, options.ping, workBudget, probeDeps))[type] ?? null);
    };
    const { content } = page;
    const values = await timings.measure('rules', async () => {
      // The page goes to the worker as bytes it takes over, encoded here a piece at a time (lib/text/pieces.ts).
      const text = content.kind === 'html' ? content.html : content.kind === 'text' ? content.text : undefined;
      const bytes = text === undefined ? undefined : await utf8Pieces(text, workBudget.signal()).catch((error: unknown) => {
        // Out of time while encoding: the pool then answers as for any task past its budget (ETIMEOUT), not EFATAL.
        if (workBudget.expired) return [];
        throw error;
      });
      const input = {
        rules: dataRules,
        html: content.kind === 'html' ? bytes : undefined,
        body: content.kind === 'text' ? bytes : undefined,
        url: page.url,
        evaluated: ctx.evaluated,
      };
      const transfer = (bytes ?? []).map((piece) => piece.buffer as ArrayBuffer);
      return deps.work.run('rules', input, { budget: workBudget, calls: { media }, transfer });
    });
    Object.assign(ctx.data, values);
    // A rule named like a default media field replaces it: nothing left for the ping step to overwrite.
    for (const name of Object.keys(values)) delete (ctx.media as Record<string, unknown>)[name];
  },
};
