/**
 * The API keys in an SSM SecureString parameter (one key per line or comma-separated), read on first use and re-read
 * every few minutes so a rotated key takes effect without a redeploy. The SDK is imported on first use: an open API
 * never loads it.
 */

const SSM_REFRESH_MS = 5 * 60_000;

const parseKeys = (text: string): string[] => text.split(/[\s,]+/).map((key) => key.trim()).filter(Boolean);

export function ssmKeys(parameter: string, region: string | undefined): () => Promise<string[]> {
  let loaded: { keys: Promise<string[]>; at: number } | undefined;
  return () => {
    if (!loaded || Date.now() - loaded.at > SSM_REFRESH_MS) {
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
