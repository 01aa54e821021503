/**
 * `embed` (docs/CONTRACT.md §6): the answer is one field of `data`. Without `embed.proxy` a URL field answers a
 * 302 to it (lib/http/respond.ts), `iframe.html` a player document (player.ts); with it, the file's own bytes (proxy.ts).
 */
import { GlanceError } from '../errors.ts';
import { embedResponse, embedValue, isHttpUrl, mediaResponse, redirect, type Envelope } from '../http/respond.ts';
import type { EmbedOptions, Options } from '../query/options.ts';
import { embedFormat } from '../rules/format.ts';
import type { Budget } from '../time/budget.ts';
import { ANSWER_RESERVE_MS } from '../time/limits.ts';
import type { Timings } from '../time/timings.ts';
import type { ApiResponse } from '../http/types.ts';
import { isPlayer, playerResponse } from './player.ts';
import { fetchMedia, type ProxyDeps } from './proxy.ts';

export interface EmbedDeps extends Omit<ProxyDeps, 'headers'> {
  /** Public base address of Glance's own stored files (CDN_URL). */
  readonly cdnUrl: string;
  readonly budget: Budget;
  readonly timings: Timings;
}

export async function embedAnswer(
  envelope: Envelope,
  options: Pick<Options, 'data' | 'headers'> & { readonly embed: EmbedOptions },
  headers: Record<string, string>,
  deps: EmbedDeps,
): Promise<ApiResponse> {
  const { path, proxy } = options.embed;
  if (!proxy && isPlayer(path, options.data)) return playerResponse(envelope, headers);
  if (!proxy) return embedResponse(envelope, path, headers, embedFormat(options.data, path));
  const value = embedValue(envelope, path);
  if (typeof value !== 'string' || !isHttpUrl(value)) {
    throw new GlanceError('EINVALEMBED', `\`embed.proxy\` needs a field holding an http(s) URL, such as image.url; \`${path}\` holds none.`, {
      data: { embed: `\`${path}\` is not a URL` },
    });
  }
  // Glance's own stored files (screenshots, PDFs, reports) are served with CORS already, by the CDN and by the
  // local service: the redirect gives the caller everything the bytes would, from a cache made for them.
  if (value.startsWith(`${deps.cdnUrl}/`)) return redirect(value, headers);
  const budget = deps.budget.slice(Infinity, ANSWER_RESERVE_MS);
  const media = await deps.timings.measure('embed', () => fetchMedia(value, budget, { ...deps, headers: options.headers }));
  return mediaResponse(media, headers);
}
