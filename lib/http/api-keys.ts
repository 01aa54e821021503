/**
 * Optional API keys (docs/CONTRACT.md §3 `EAUTH`): with keys configured, a request must carry one in `x-api-key`;
 * without configuration the API is open. Deployed, the keys live in an SSM SecureString parameter, read by
 * lib/aws/ssm-keys.ts; locally they may be given in the environment.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import { ssmKeys } from '../aws/ssm-keys.ts';
import { GlanceError } from '../errors.ts';

export type KeyCheck = (presented: string | undefined) => Promise<void>;

/** Compares in constant time, so a caller cannot learn a key byte by byte from response times. */
function matches(presented: string, keys: readonly string[]): boolean {
  const given = Buffer.from(presented);
  let found = false;
  for (const key of keys) {
    const expected = Buffer.from(key);
    if (expected.length === given.length && timingSafeEqual(expected, given)) found = true;
  }
  return found;
}

export function createKeyCheck(settings: Config['apiKeys'], region?: string): KeyCheck | undefined {
  if (settings.kind === 'none') return undefined;
  const load = settings.kind === 'env' ? async () => settings.keys : ssmKeys(settings.parameter, region);
  return async (presented) => {
    let keys: readonly string[];
    try {
      keys = await load();
    } catch (error) {
      throw new GlanceError('EFATAL', 'The API keys could not be read; try again shortly.', { cause: error });
    }
    if (!presented || !matches(presented, keys)) {
      throw new GlanceError('EAUTH', presented ? 'The `x-api-key` header is not a valid API key.' : 'This API needs a key: send it in the `x-api-key` header.', {
        data: { 'x-api-key': presented ? 'not a valid key' : 'required' },
      });
    }
  };
}
