/** Verifies and enriches every media field's candidates (docs/CONTRACT.md §4). */
import { pingMedia } from '../../ping/index.ts';
import { ANSWER_RESERVE_MS } from '../../time/limits.ts';
import { PALETTE_MAX_BYTES, type Context, type Step } from '../context.ts';

export const ping: Step<Context['media']> = {
  name: 'ping',
  reads: ['media'],
  writes: ['data.media', 'bodies'],
  wants: ({ media }) => (Object.keys(media).length > 0 ? media : undefined),
  async run(ctx, media) {
    const { options, budget, deps } = ctx;
    // With `palette` the probes keep the image bytes for the palette step; those bytes are not cached across
    // requests (5 MB each), so these probes skip the shared cache: the whole answer is cached by lib/cache.
    const body = options.palette ? { limit: PALETTE_MAX_BYTES, sink: ctx.bodies } : undefined;
    const cache = body ? undefined : deps.pingCache;
    const probeDeps = { policy: deps.config.policy, userAgent: deps.config.userAgent, resolver: deps.resolver, outbound: ctx.outbound, hop: ctx.hop, nestedProof: deps.nestedProof, cache, body };
    const pinged = await ctx.timings.measure('ping', () => pingMedia(media, options.ping, budget.slice(Infinity, ANSWER_RESERVE_MS), probeDeps));
    Object.assign(ctx.data, pinged);
  },
};
