/** Verifies and enriches every media field's candidates (docs/CONTRACT.md §4). */
import { pingMedia } from '../../ping/index.ts';
import { ANSWER_RESERVE_MS, type Step } from '../context.ts';

export const ping: Step = {
  name: 'ping',
  wants: ({ media }) => Object.keys(media).length > 0,
  async run(ctx) {
    const { media, options, budget, deps } = ctx;
    const probeDeps = { policy: deps.config.policy, userAgent: deps.config.userAgent, resolver: deps.resolver, cache: deps.pingCache };
    const pinged = await ctx.timings.measure('ping', () => pingMedia(media, options.ping, budget.slice(Infinity, ANSWER_RESERVE_MS), probeDeps));
    Object.assign(ctx.data, pinged);
  },
};
