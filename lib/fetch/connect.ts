/**
 * The connect-time half of the address policy: every socket resolves names through a lookup that vets every
 * address and hands net the vetted one, so the address checked is the address connected to (no DNS-rebinding
 * window between a check and a second resolution). IP-literal hosts skip lookup; parseTarget vets those.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { GlanceError } from '../errors.ts';
import type { AddressPolicy } from './policy.ts';

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

/** The operating system's resolver (what browsers use too), every address, in its own order. */
export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, order: 'verbatim' })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}

/**
 * Resolves `hostname` and refuses the whole name when any answer is not allowed: a name that mixes public and
 * private answers is how rebinding attacks look.
 */
async function vettedAddresses(
  hostname: string,
  family: LookupOptions['family'],
  policy: AddressPolicy,
  resolver: Resolver,
): Promise<LookupAddress[]> {
  const answers = await resolver(hostname);
  const refused = answers.find(({ address }) => !policy.allows(address, hostname));
  if (refused) {
    throw new GlanceError(
      'EFORBIDDENURL',
      `${hostname} resolves to ${refused.address}, which is not a public address: only public hosts can be fetched.`,
      { data: { url: 'must point to a public address' } },
    );
  }
  const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : family;
  const usable = wanted === 4 || wanted === 6 ? answers.filter((answer) => answer.family === wanted) : answers;
  if (usable.length === 0) throw notFound(hostname);
  return usable;
}

export function guardedLookup(policy: AddressPolicy, resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    vettedAddresses(hostname, options.family, policy, resolver).then(
      (addresses) => {
        // net asks for every address (`all: true`) when autoSelectFamily is on, and for one otherwise.
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      // A GlanceError travels through net and http untouched, so the refusal keeps its code.
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** The agent for each scheme; both connect only through the guarded lookup. */
export interface Agents {
  readonly 'http:': HttpAgent;
  readonly 'https:': HttpsAgent;
}

const agents = new WeakMap<AddressPolicy, WeakMap<Resolver, Agents>>();

function agentOptions(lookup: LookupFunction): AgentOptions {
  return {
    keepAlive: true,
    // An agent's own options override a request's, so no request can connect around the guarded lookup. A pooled
    // socket is only handed to the same host and port, and it is connected to an address this lookup vetted.
    lookup,
    // Bounded, yet far above what one request (a page and 8 concurrent probes) or the local service needs: a
    // queue for a socket would spend budgets waiting.
    maxSockets: 256,
    maxFreeSockets: 64,
    // Idle sockets close after 4 s (undici's default), before servers commonly drop theirs at 5 s; an earlier
    // `Keep-Alive: timeout` hint from the server wins.
    timeout: 4000,
  };
}

/** One pair of keep-alive agents per (policy, resolver) pair, so connections are reused across requests. */
export function agentFor(policy: AddressPolicy, resolver: Resolver = systemResolver): Agents {
  let byResolver = agents.get(policy);
  if (!byResolver) agents.set(policy, (byResolver = new WeakMap()));
  let pair = byResolver.get(resolver);
  if (!pair) {
    const options = agentOptions(guardedLookup(policy, resolver));
    pair = { 'http:': new HttpAgent(options), 'https:': new HttpsAgent(options) };
    byResolver.set(resolver, pair);
  }
  return pair;
}
