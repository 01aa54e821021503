/** The duration parameters: cache lifetimes and time limits, each with its range and error code. */
import { invalidParam, type ErrorCode } from '../errors.ts';
import { formatDuration, parseDuration } from './duration.ts';
import { TIMEOUT, TTL } from './options.ts';
import { child, parseBoolean, scalar, type Found } from './read.ts';
import type { QueryNode } from './tree.ts';

interface Range {
  readonly min: number;
  readonly max: number;
  readonly code: ErrorCode;
  /** Whether `min` / `max` are accepted as values. */
  readonly aliases: boolean;
}

function accepted({ min, max, aliases }: Range): string {
  const alias = aliases ? '; or `min`, `max`' : '';
  const forms = `milliseconds, or a number with a unit as the ms package spells it, such as 90s, 90secs, 10m, 1h, 1d, 1day${alias}`;
  return `a duration from ${formatDuration(min)} to ${formatDuration(max)} (${forms})`;
}

function duration(found: Found, range: Range): number {
  const raw = scalar(found).trim().toLowerCase();
  const alias = !range.aliases ? undefined : raw === 'min' ? range.min : raw === 'max' ? range.max : undefined;
  const ms = alias ?? parseDuration(raw);
  if (ms === undefined || ms < range.min || ms > range.max) throw invalidParam(found.name, accepted(range), range.code);
  return ms;
}

export interface Timing {
  readonly ttl: number;
  readonly staleTtl: number | false;
  readonly timeout: number;
  readonly waitForTimeout: number | undefined;
}

export function readTiming(root: QueryNode): Timing {
  const ttlFound = child(root, 'ttl');
  const ttl = ttlFound
    ? duration(ttlFound, { min: TTL.min, max: TTL.max, code: 'EINVALTTL', aliases: true })
    : TTL.default;

  let staleTtl: number | false = false;
  const staleFound = child(root, 'staleTtl');
  if (staleFound) {
    const given = parseBoolean(scalar(staleFound).trim());
    // `true` asks for stale-while-revalidate at once, which is what `0` means (Microlink's boolean form).
    staleTtl =
      given === false ? false
      : given === true ? 0
      : duration(staleFound, { min: 0, max: TTL.max, code: 'EINVALSTTL', aliases: false });
    if (staleTtl !== false && staleTtl > ttl) {
      const limit = `a duration no longer than \`ttl\` (${formatDuration(ttl)}), or false`;
      throw invalidParam(staleFound.name, limit, 'EINVALSTTL');
    }
  }

  const timeoutFound = child(root, 'timeout');
  const timeout = timeoutFound
    ? duration(timeoutFound, { min: TIMEOUT.min, max: TIMEOUT.max, code: 'EINVALQUERY', aliases: true })
    : TIMEOUT.default;

  const waitFound = child(root, 'waitForTimeout');
  const waitForTimeout = waitFound
    ? duration(waitFound, { min: 0, max: timeout, code: 'EINVALQUERY', aliases: false })
    : undefined;

  return { ttl, staleTtl, timeout, waitForTimeout };
}
