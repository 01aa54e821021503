/** Shared pieces of the fetch tests: options with an exemption for the local test servers, and error checks. */
import assert from 'node:assert/strict';
import { Budget } from '../../lib/time/budget.ts';
import { GlanceError, type ErrorCode } from '../../lib/errors.ts';
import type { FetchOptions, Resolver } from '../../lib/fetch/index.ts';
import { AddressPolicy } from '../../lib/guard/policy.ts';

export const USER_AGENT = 'GlanceTest/1.0 (like Chrome)';

/** The exemption every local-server test needs; tests of the guard itself use their own policy. */
export const localPolicy = AddressPolicy.fromSetting('127.0.0.1');

export function options(overrides: Partial<FetchOptions> = {}): FetchOptions {
  return { policy: localPolicy, budget: new Budget(2000), userAgent: USER_AGENT, maxBytes: 1024 * 1024, ...overrides };
}

/** A resolver that answers fixed addresses for any name, and counts its calls. */
export function fixedResolver(...addresses: string[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolver, { calls });
}

/** Awaits a promise that must fail with a GlanceError of `code`, and returns the error. */
export async function rejectsWith(promise: Promise<unknown>, code: ErrorCode): Promise<GlanceError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof GlanceError, `expected GlanceError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.doesNotMatch(caught.message, /\n\s+at /, 'no stack trace in the message');
  return caught;
}
