/** Keep-alive agents that connect only through the guarded lookup (lib/guard/lookup.ts), one pair per policy. */
import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { guardedLookup, systemResolver, type Resolver } from '../guard/lookup.ts';
import type { AddressPolicy } from '../guard/policy.ts';
import { https } from './builtins.ts';

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
    pair = { 'http:': new HttpAgent(options), 'https:': new (https().Agent)(options) };
    byResolver.set(resolver, pair);
  }
  return pair;
}
