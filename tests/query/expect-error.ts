/** Asserts that parsing fails with `code` and a message (and `data`) naming `param` as the caller wrote it. */
import assert from 'node:assert/strict';
import { GlanceError, type ErrorCode } from '../../lib/errors.ts';
import { parseQuery } from '../../lib/query/index.ts';

export const URL_PARAM = 'url=https%3A%2F%2Fexample.com%2F';

/** Parses `url=…&<query>`. */
export const parse = (query: string, headers?: Record<string, string | undefined>) =>
  parseQuery(query === '' ? URL_PARAM : `${URL_PARAM}&${query}`, headers);

export function expectError(run: () => unknown, code: ErrorCode, param: string): GlanceError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof GlanceError, `expected a GlanceError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.ok(caught.message.includes(`\`${param}\``), `message should name \`${param}\`: ${caught.message}`);
  assert.ok(caught.data && param in caught.data, `data should name ${param}: ${JSON.stringify(caught.data)}`);
  return caught;
}

/** Parsing `url=…&<query>` fails with `code`, naming `param`. */
export const rejects = (query: string, code: ErrorCode, param: string): GlanceError =>
  expectError(() => parse(query), code, param);
