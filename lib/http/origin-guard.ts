/**
 * Deployed, the HTTP API's own address (`https://<id>.execute-api…`) would let a caller skip CloudFront and with it
 * the edge cache and the optional WAF rules. HTTP APIs can turn that address off only in favour of an API Gateway
 * custom domain, which a deployment without one does not have; so CloudFront adds a header holding a secret the
 * stack generated (stacks/origin-secret.ts), and the function answers nothing that lacks it.
 */
import { timingSafeEqual } from 'node:crypto';
import { GlanceError } from '../errors.ts';

export const ORIGIN_HEADER = 'x-glance-origin';

/** True when no secret is configured (the local service, tests) or the request carries it; compared in constant time. */
export function cameThroughOrigin(secret: string | undefined, presented: string | undefined): boolean {
  if (secret === undefined) return true;
  const given = Buffer.from(presented ?? '');
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const bypassedOrigin = (): GlanceError =>
  new GlanceError('EAUTH', 'This address answers only requests that came through the API\'s CloudFront address (the stack\'s ApiEndpoint): call that.', {
    data: { [ORIGIN_HEADER]: 'required' },
  });
