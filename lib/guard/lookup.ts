/**
 * The connect-time half of the address policy: every socket resolves names through a lookup that vets every
 * address and hands net the vetted one, so the address checked is the address connected to (no DNS-rebinding
 * window between a check and a second resolution). IP-literal hosts skip lookup; parseTarget vets those.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
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
    // The caller learns that the name is refused, never what it resolves to: the answer would be an oracle into
    // private DNS (which intranet names exist, and where). The address stays on `cause`, for server logs only.
    throw new GlanceError(
      'EFORBIDDENURL',
      `${hostname} does not resolve to a public address: only public hosts can be fetched.${policy.refusalHint(hostname)}`,
      { data: { url: 'must point to a public address' }, cause: new Error(`${hostname} resolves to ${refused.address}`) },
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
