/**
 * Optional API keys (docs/CONTRACT.md §3 `EAUTH`): with keys configured, a request must carry one in `x-api-key`;
 * without configuration the API is open. Deployed, the keys live in an SSM SecureString parameter (one key per
 * line or comma-separated), read on first use and re-read every few minutes so a rotated key takes effect
 * without a redeploy.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import { GlanceError } from '../errors.ts';

const SSM_REFRESH_MS = 5 * 60_000;

export type KeyCheck = (presented: string | undefined) => Promise<void>;

const parseKeys = (text: string): string[] => text.split(/[\s,]+/).map((key) => key.trim()).filter(Boolean);

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

function ssmKeys(parameter: string, region: string | undefined): () => Promise<string[]> {
  let loaded: { keys: Promise<string[]>; at: number } | undefined;
  return () => {
    if (!loaded || Date.now() - loaded.at > SSM_REFRESH_MS) {
      // Imported on first use: an open API never loads the SSM client.
      const keys = import('@aws-sdk/client-ssm').then(async ({ SSMClient, GetParameterCommand }) => {
        const client = new SSMClient(region ? { region } : {});
        const { Parameter } = await client.send(new GetParameterCommand({ Name: parameter, WithDecryption: true }));
        return parseKeys(Parameter?.Value ?? '');
      });
      const entry = { keys, at: Date.now() };
      // A failed read is retried on the next request rather than cached.
      keys.catch(() => {
        if (loaded === entry) loaded = undefined;
      });
      loaded = entry;
    }
    return loaded.keys;
  };
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
