/**
 * Asks a provider's endpoint for the embed of one URL, through the guarded fetcher: the endpoint (named by a
 * stranger's page, or the registry) gets the same address rules, redirect checks and budget as the target itself.
 */
import { Parser } from 'htmlparser2';
import { fetchPage, type Resolver } from '../fetch/index.ts';
import type { AddressPolicy } from '../guard/policy.ts';
import type { Outbound } from '../guard/outbound.ts';
import type { Budget } from '../time/budget.ts';
import { parseJson } from '../json.ts';

/** oEmbed 1.0 §2.3.4, as far as an embed needs it; every member as the provider sent it. */
export type OembedResponse = Record<string, unknown>;

export interface OembedSizes {
  readonly maxWidth: number | undefined;
  readonly maxHeight: number | undefined;
}

export interface RequestDeps {
  readonly policy: AddressPolicy;
  readonly userAgent: string;
  readonly budget: Budget;
  readonly resolver?: Resolver | undefined;
  readonly outbound?: Outbound | undefined;
}

/** An answer is a few kilobytes of JSON; a megabyte is a provider gone wrong. */
const MAX_BYTES = 1024 * 1024;

/** The discovered endpoint (which already names the page), or the registry's with `url` and `format` added. */
export function endpointUrl(endpoint: string, page: string | undefined, sizes: OembedSizes): string | undefined {
  const url = URL.parse(endpoint);
  if (!url) return undefined;
  const { searchParams } = url;
  if (page !== undefined) {
    searchParams.set('url', page);
    searchParams.set('format', 'json');
  }
  // §2.2: consumer parameters, which the provider may honour.
  if (sizes.maxWidth !== undefined) searchParams.set('maxwidth', String(sizes.maxWidth));
  if (sizes.maxHeight !== undefined) searchParams.set('maxheight', String(sizes.maxHeight));
  return url.href;
}

export async function requestOembed(url: string, deps: RequestDeps): Promise<OembedResponse | undefined> {
  const response = await fetchPage(url, {
    policy: deps.policy,
    budget: deps.budget,
    userAgent: deps.userAgent,
    maxBytes: MAX_BYTES,
    headers: { accept: 'application/json, text/xml;q=0.9, application/xml;q=0.9' },
    resolver: deps.resolver,
    outbound: deps.outbound,
  });
  if (response.statusCode !== 200) return undefined;
  const text = response.body.toString('utf8').trim();
  return text.startsWith('<') ? parseXml(text) : parseObject(text);
}

function parseObject(text: string): OembedResponse | undefined {
  const value = parseJson(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as OembedResponse) : undefined;
}

/** §2.3.4.2: `<oembed>` whose children are the members, their text entity-encoded. */
function parseXml(text: string): OembedResponse | undefined {
  const out: OembedResponse = {};
  const path: string[] = [];
  let sawRoot = false;
  const parser = new Parser(
    {
      onopentag(name) {
        path.push(name);
        if (path.length === 1 && name === 'oembed') sawRoot = true;
        if (path.length === 2 && path[0] === 'oembed') out[name] = '';
      },
      ontext(chunk) {
        const member = path.length === 2 && path[0] === 'oembed' ? path[1] : undefined;
        if (member !== undefined) out[member] = `${String(out[member] ?? '')}${chunk}`;
      },
      onclosetag() {
        path.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  return sawRoot ? out : undefined;
}
