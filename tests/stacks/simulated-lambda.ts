/**
 * A Lambda instance on this machine, as close as Linux namespaces get without AWS: the staged function code at
 * /var/task, the staged layers merged at /opt, a read-only root, a 512 MB /tmp and nothing else writable, no usable
 * /dev/shm, a non-root user, Lambda's environment (AWS_EXECUTION_ENV makes @sparticuz/chromium unpack its Amazon
 * Linux libraries), and one invocation at a time through the handler, warm between invocations. The instance is the
 * first process of its own PID namespace, so when it ends every Chromium it started ends with it.
 *
 * Needs root (to make the namespaces) and util-linux's `unshare` and `setpriv`; `unavailable()` says why not.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** Lambda runs functions as an unprivileged user (sbx_user1051); `nobody` stands in for it. */
const LAMBDA_UID = 65534;
/** Lambda's /tmp: 512 MB unless the function asks for more. */
const TMP_SIZE = '512m';
const RESULT = '\u0001result ';

/** The Lambda runtime's part: import the handler once, then one event per stdin line, one result per stdout line. */
const RUNNER = `
import { createInterface } from 'node:readline';
const { handler } = await import('/var/task/functions/api.mjs');
const deadline = () => Date.now() + 30_000;
for await (const line of createInterface({ input: process.stdin })) {
  const ends = deadline();
  const context = {
    awsRequestId: 'simulated', functionName: process.env.AWS_LAMBDA_FUNCTION_NAME, functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:' + process.env.AWS_LAMBDA_FUNCTION_NAME,
    memoryLimitInMB: '2048', logGroupName: '/aws/lambda/simulated', logStreamName: 'simulated',
    callbackWaitsForEmptyEventLoop: false, getRemainingTimeInMillis: () => ends - Date.now(),
  };
  let result;
  try {
    result = await handler(JSON.parse(line), context);
  } catch (error) {
    result = { invocationError: String(error && error.stack || error) };
  }
  process.stdout.write(${JSON.stringify(RESULT)} + JSON.stringify(result) + '\\n');
}
process.exit(0);
`;

export type InvocationResult = APIGatewayProxyStructuredResultV2 & { invocationError?: string };

export interface SimulatedLambda {
  /** The instance's outermost process: every Chromium it starts runs below it. */
  readonly pid: number;
  invoke(event: APIGatewayProxyEventV2): Promise<InvocationResult>;
  /** What the instance wrote to stderr so far (Chromium's and Node's complaints), for failure messages. */
  readonly log: () => string;
  close(): Promise<void>;
}

export interface SimulatedLambdaOptions {
  /** The staged function code (holds functions/api.mjs and its node_modules). */
  readonly task: string;
  /** Staged layer folders, merged at /opt in order (their top-level folders must not clash). */
  readonly layers: readonly string[];
  /** The function's environment variables, as the stack would set them. */
  readonly env: Record<string, string>;
}

/** Why this machine cannot host the simulation, or undefined when it can. */
export function unavailable(): string | undefined {
  if (process.platform !== 'linux') return 'Linux namespaces are needed';
  if (process.getuid?.() !== 0) return 'root is needed to make the namespaces';
  const probe = spawnSync('unshare', ['--mount', '--pid', '--fork', '--mount-proc', 'setpriv', `--reuid=${LAMBDA_UID}`, `--regid=${LAMBDA_UID}`, '--clear-groups', 'true']);
  return probe.status === 0 ? undefined : `unshare/setpriv failed: ${probe.error?.message ?? probe.stderr.toString().trim()}`;
}

const quote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** The shell run as root inside the new namespaces: build the file system, then become the function. */
function setupScript(task: string, runtime: string, layers: readonly string[], node: string): string {
  const binds = layers.flatMap((layer) =>
    readdirSync(layer).map((entry) => `mkdir -p /opt/${quote(entry)} && mount --bind ${quote(join(layer, entry))} /opt/${quote(entry)}`),
  );
  return [
    'set -eu',
    'mount --make-rprivate /',
    // Lambda's own folders: the code, the runtime, the layers; all read-only.
    'mount -t tmpfs -o size=1m,mode=755 tmpfs /opt',
    ...binds,
    'mount -o remount,ro /opt',
    'mount -t tmpfs -o size=1m,mode=755 tmpfs /var',
    'mkdir -p /var/task /var/runtime',
    `mount --bind ${quote(task)} /var/task`,
    `mount --bind ${quote(runtime)} /var/runtime`,
    'mount -o remount,ro /var',
    // The one writable place.
    `mount -t tmpfs -o size=${TMP_SIZE},mode=1777 tmpfs /tmp`,
    // Lambda has no /dev/shm: an empty read-only one stands in.
    'while umount /dev/shm 2>/dev/null; do :; done',
    'mount -t tmpfs -o ro,size=4k tmpfs /dev/shm',
    'mount -o remount,bind,ro /',
    `cd /var/task && exec setpriv --reuid=${LAMBDA_UID} --regid=${LAMBDA_UID} --clear-groups ${quote(node)} /var/runtime/runner.mjs`,
  ].join('\n');
}

export async function startSimulatedLambda({ task, layers, env }: SimulatedLambdaOptions): Promise<SimulatedLambda> {
  const runtime = mkdtempSync(join(tmpdir(), 'glance-runtime-'));
  writeFileSync(join(runtime, 'runner.mjs'), RUNNER, { mode: 0o644 });
  // The function's user must be able to enter it once it is mounted at /var/runtime.
  chmodSync(runtime, 0o755);
  const child: ChildProcessWithoutNullStreams = spawn('unshare', ['--mount', '--pid', '--fork', '--kill-child', '--mount-proc', 'sh', '-c', setupScript(task, runtime, layers, process.execPath)], {
    env: {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      LAMBDA_TASK_ROOT: '/var/task',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_FUNCTION_NAME: 'simulated-glance-api',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '2048',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_EC2_METADATA_DISABLED: 'true',
      ...env,
    },
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  const results: Array<(result: InvocationResult) => void> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith(RESULT)) results.shift()?.(JSON.parse(line.slice(RESULT.length)) as InvocationResult);
  });
  return {
    pid: child.pid!,
    invoke: (event) =>
      new Promise((resolve, reject) => {
        if (child.exitCode !== null) return reject(new Error(`the simulated Lambda exited (${child.exitCode}):\n${log}`));
        results.push(resolve);
        void exited.then(() => reject(new Error(`the simulated Lambda exited (${child.exitCode}):\n${log}`)));
        child.stdin.write(`${JSON.stringify(event)}\n`);
      }),
    log: () => log,
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(runtime, { recursive: true, force: true });
    },
  };
}

/**
 * API Gateway's part, for clients that speak HTTP (`npm run smoke`): each request on 127.0.0.1 becomes a payload
 * 2.0 event, invoked on the instance one at a time, as Lambda does.
 */
export async function serveOverHttp(lambda: SimulatedLambda, toEvent: (rawQuery: string, method: string) => APIGatewayProxyEventV2): Promise<{ url: string; close(): Promise<void> }> {
  let line = Promise.resolve();
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://api.test').search.slice(1);
    line = line.then(async () => {
      const result = await lambda.invoke(toEvent(query, req.method ?? 'GET')).catch((error: Error) => ({ statusCode: 502, body: error.message }) as InvocationResult);
      const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]));
      const payload = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
      res.writeHead(result.statusCode ?? 500, headers).end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
