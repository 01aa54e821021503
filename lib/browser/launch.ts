/**
 * Starting Chromium: which binary, which flags, and the one place puppeteer-core is loaded (dynamically, so a
 * metadata-only request never pays its ~260 ms import).
 */
import { accessSync, constants } from 'node:fs';
import { Writable } from 'node:stream';
import type { Browser, PuppeteerNode } from 'puppeteer-core';
import type { Config } from '../config.ts';
import { LAUNCH_TIMEOUT_MS, PROTOCOL_TIMEOUT_MS } from '../time/limits.ts';

export interface LaunchSettings {
  readonly chromium: Config['chromium'];
  /** Where the browser-wide proxy listens; every context also gets one of its own (see page.ts). */
  readonly proxyUrl: string;
  /** Appended last, e.g. tests' `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`. */
  readonly extraArgs?: readonly string[];
  /** The binary to start (BrowserHost shares one `sharedExecutable` between its launches). */
  readonly executable: Executable;
}

let puppeteer: Promise<PuppeteerNode> | undefined;

export function loadPuppeteer(): Promise<PuppeteerNode> {
  puppeteer ??= import('puppeteer-core').then((module) => module.default);
  return puppeteer;
}

/**
 * Debian's headless shell first (starts in ~0.15 s, no UI code), then a full Chromium. The real binaries come
 * before /usr/bin's wrapper scripts: a wrapper that does not `exec` leaves Chromium orphaned when it is killed.
 * Fixed directories rather than $PATH, because lib/ reads no environment; CHROMIUM_PATH overrides.
 */
const LOCAL_CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/local/bin/chromium-headless-shell',
  '/usr/local/bin/chromium',
  '/usr/bin/google-chrome',
];

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The configured binary, else the first local candidate; throws when there is none. */
export function findChromium(configured: string | undefined): string {
  const path = configured ?? LOCAL_CANDIDATES.find(isExecutable);
  if (!path) throw new Error(`No Chromium found (looked for ${LOCAL_CANDIDATES.join(', ')}); set CHROMIUM_PATH.`);
  return path;
}

/**
 * V8 old-space cap per renderer, in MB. The Lambda has 2048 MB (stacks/Glance.ts) for the browser process, two
 * pages at once and Node; 512 MB is ~4× what heavy real pages use (bench) and leaves room for both pages'
 * DOM, images and compositor memory, which live outside V8's heap. The cap applies to each renderer process:
 * a page only ever shares its renderer with same-site frames, since every page has its own context.
 */
export const RENDERER_HEAP_MB = 512;

/**
 * Flags for every launch, each with its reason. Puppeteer adds its own defaults (no first run, no sync, no
 * background networking, no extensions, `--disable-dev-shm-usage`...) and merges `--disable-features` lists.
 */
function glanceArgs(proxyUrl: string): string[] {
  return [
    // Lambda and containers run as root without user namespaces, where the sandbox cannot start. What a page
    // may reach is enforced outside the renderer, by the proxy below.
    '--no-sandbox',
    // No GPU here; software rasterising is what headless uses anyway, and skipping GPU init saves startup time.
    '--disable-gpu',
    // Chromium's own calls home (component updates, sync, first-run, variations) would hit a closed network
    // and waste time or hang. Puppeteer adds most of these too; they are listed so the set does not depend on
    // its defaults.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-pings',
    // Every request goes through the guarded proxy (proxy.ts), which applies docs/CONTRACT.md §7 on the address it
    // connects to. Pages run in contexts with a proxy of their own; this one only serves the default context.
    `--proxy-server=${proxyUrl}`,
    // Chromium bypasses proxies for loopback implicitly; `<-loopback>` removes that exception, so 127.0.0.1
    // and [::1] are vetted like any other address
    // (https://chromium.googlesource.com/chromium/src/+/HEAD/net/docs/proxy.md#Implicit-bypass-rules).
    '--proxy-bypass-list=<-loopback>',
    // QUIC is UDP, which an HTTP proxy cannot carry; with it off, nothing tries to go around the proxy.
    '--disable-quic',
    // WebRTC would otherwise send STUN/TURN UDP straight to any address a page names (measured: 6 packets to
    // 127.0.0.1 without this flag, none with it); this keeps WebRTC to TURN over TCP, through the proxy.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    // Captures are of the page, not of scrollbars.
    '--hide-scrollbars',
    // There is no audio device to play a page's sound on; muting skips opening one.
    '--mute-audio',
    // Each renderer's V8 heap is capped, so a page that allocates without end dies alone (puppeteer's 'error'
    // event → EPAGECRASH) instead of swapping the whole Lambda out of memory with the pages beside it.
    `--js-flags=--max-old-space-size=${RENDERER_HEAP_MB}`,
    // window.open, target=_blank and friends create no page (window.open answers null): 1 000 popups measured
    // 2.2 GB otherwise (issue 11). Glance captures one page; pages it opens itself over CDP are not affected.
    '--block-new-web-contents',
  ];
}

/**
 * The only environment variables Chromium gets (issue 11 item 8): finding its libraries, fonts, a home and the
 * time zone. Everything else stays with Node — above all AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
 * AWS_SESSION_TOKEN, which Lambda puts in every function's environment and which a process running strangers'
 * JavaScript unsandboxed must not hold.
 */
export const CHROMIUM_ENV: readonly string[] = [
  'PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG', 'LANGUAGE', 'LC_ALL',
  'LD_LIBRARY_PATH', 'FONTCONFIG_PATH', 'FONTCONFIG_FILE', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME',
];

/** `source` narrowed to CHROMIUM_ENV. */
export function chromiumEnv(source: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of CHROMIUM_ENV) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * @sparticuz/chromium's flags minus three. `--disable-web-security` (a page could read other origins'
 * responses) and `--allow-running-insecure-content` (https pages could load http scripts) weaken pages'
 * isolation and Glance never needs them. `--single-process` is Glance's to choose (GLANCE_CHROMIUM_MODE): it
 * breaks isolated contexts (measured with this binary and Debian's, the first page of a new context fails with
 * "Target.createTarget: Target closed", https://github.com/Sparticuz/chromium/issues/298), so browser.ts gives
 * each page a browser of its own in that mode.
 */
const UNWANTED_LAMBDA_ARGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);

/** Where a Lambda layer puts node_modules; ESM imports do not search NODE_PATH, so it is tried by path. */
const LAYER_MODULE = '/opt/nodejs/node_modules/@sparticuz/chromium/build/index.js';

interface Sparticuz {
  readonly args: string[];
  executablePath(): Promise<string>;
}

async function loadSparticuz(): Promise<Sparticuz> {
  try {
    return (await import('@sparticuz/chromium')).default;
  } catch {
    return ((await import(LAYER_MODULE)) as { default: Sparticuz }).default;
  }
}

/** Where the binary is, resolved once per host and shared by every launch (see `sharedExecutable`). */
export type Executable = () => Promise<string>;

/**
 * The configured binary; in Lambda the one @sparticuz/chromium unpacks into /tmp (seconds, on a cold instance), else
 * the first local candidate.
 */
export async function chromiumExecutable(chromium: Config['chromium']): Promise<string> {
  if (chromium.mode !== 'lambda') return findChromium(chromium.path);
  return chromium.path ?? (await (await loadSparticuz()).executablePath());
}

/**
 * `find`, run once by every launch that needs it and joined while it runs (forgotten if it fails). @sparticuz/chromium
 * answers at once once /tmp/chromium exists, even while it is still writing it: a second launch racing the unpack
 * executed a half-written file (`spawn ETXTBSY`, issue 26). Joining the unpack in flight waits for the whole file.
 */
export function sharedExecutable(find: Executable): Executable {
  let found: Promise<string> | undefined;
  return () => {
    found ??= find().catch((error: unknown) => {
      found = undefined;
      throw error;
    });
    return found;
  };
}

async function lambdaArgs(chromium: Config['chromium']): Promise<string[]> {
  if (chromium.mode !== 'lambda') return [];
  return (await loadSparticuz()).args.filter((arg) => !UNWANTED_LAMBDA_ARGS.has(arg));
}

/**
 * Puppeteer writes each protocol message and then its `\0` terminator to the pipe, two writes, and each wakes
 * Chromium's pipe reader (a cross-process wakeup, dear in a VM). Corked until the end of the tick, the messages of
 * one tick leave in one write: a page's setup sends several at once. Order is unchanged, and nothing waits longer
 * than the current tick.
 */
function batchWrites(pipe: Writable): void {
  const write = pipe.write.bind(pipe) as (...args: unknown[]) => boolean;
  pipe.write = ((...args: unknown[]) => {
    if (pipe.writableCorked === 0) {
      pipe.cork();
      process.nextTick(() => pipe.uncork());
    }
    return write(...args);
  }) as Writable['write'];
}

export async function launchChromium(settings: LaunchSettings): Promise<Browser> {
  const browser = await startChromium(settings);
  const pipe = browser.process()?.stdio[3];
  if (pipe instanceof Writable) batchWrites(pipe);
  return browser;
}

async function startChromium({ chromium, proxyUrl, extraArgs = [], executable }: LaunchSettings): Promise<Browser> {
  const [path, args, puppeteer] = await Promise.all([executable(), lambdaArgs(chromium), loadPuppeteer()]);
  return puppeteer.launch({
    executablePath: path,
    // The headless shell only knows the old headless mode; a full Chromium only the new one.
    headless: chromium.mode === 'lambda' || path.includes('headless-shell') ? 'shell' : true,
    // @sparticuz/chromium's maintainers keep the renderer in the browser process on Lambda, where they saw
    // `prctl(PR_SET_NO_NEW_PRIVS) failed` from separate ones.
    args: [...args, ...glanceArgs(proxyUrl), ...(chromium.processes === 'single' ? ['--single-process'] : []), ...extraArgs],
    // Read at launch, not from Config: @sparticuz/chromium sets FONTCONFIG_PATH, HOME and LD_LIBRARY_PATH in
    // process.env only when executablePath() unpacks it (just above), and Chromium needs those values.
    env: chromiumEnv(process.env),
    // A pipe instead of a DevTools port: nothing else on the machine (a page included, when loopback is
    // exempted for development) can connect to the browser and drive it.
    pipe: true,
    // Every page sets its own viewport; puppeteer's 800×600 default would be one more CDP call per page.
    defaultViewport: null,
    // Glance reads no DevTools issues (cookie, mixed-content, deprecation reports): without the Audits domain a page
    // costs one call less, and Chromium neither builds nor sends the reports a real page raises by the dozen.
    issuesEnabled: false,
    timeout: LAUNCH_TIMEOUT_MS,
    protocolTimeout: PROTOCOL_TIMEOUT_MS,
    // Puppeteer would kill Chromium on these signals, under screenshots still in flight (reported as the
    // target's EFETCH). The service owns shutdown instead: BrowserHost.shutdown lets pages finish first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
