/**
 * How SST bundles the API function (its `nodejs` options), in one place: stacks/Glance.ts hands them to SST, and the
 * cold-start benchmark (bench/lib/bundle.ts) builds the same bundle from them without synthesising the app.
 */
import type { NodeJSProps } from 'sst/constructs';
import { CHROMIUM_PACKAGE } from './chromium-layer.ts';
import { SHARP_PACKAGE } from './sharp.ts';

type Plugin = NonNullable<NonNullable<NodeJSProps['esbuild']>['plugins']>[number];

/** node:http's own exports, the lazy getters left out (WebSocket & co., globalAgent, maxHeaderSize: on the default). */
const HTTP_EXPORTS = [
  'METHODS', 'STATUS_CODES', 'Agent', 'ClientRequest', 'IncomingMessage', 'OutgoingMessage', 'Server', 'ServerResponse',
  'createServer', 'get', 'request', 'setMaxIdleHTTPParsers', 'validateHeaderName', 'validateHeaderValue',
];

/**
 * Every ES import of node:http in the bundle (ours, the AWS SDK's HTTP handler, the X-Ray SDK's) gets the CommonJS
 * module through process.getBuiltinModule instead. Node builds an ES import's facade by reading every export, and
 * Node 22's lazy WebSocket getters on node:http then load the whole of its bundled undici, node:http2 with it
 * (nodejs/node#57649): ~16 ms of the handler import's CPU time, more with the S3 SDK loaded. require() calls are
 * left alone (they make no facade). A named import this module does not export fails the build, never a cold start;
 * a namespace import (`* as http`) would see only these names and the default (none in the bundle today).
 */
export const nodeHttpWithoutFacade: Plugin = {
  name: 'node-http-without-facade',
  setup(build) {
    build.onResolve({ filter: /^(node:)?http$/ }, ({ kind }) => (kind === 'import-statement' ? { path: 'node:http', namespace: 'node-http' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'node-http' }, () => ({
      contents: `const http = process.getBuiltinModule('node:http');\nexport default http;\nexport const { ${HTTP_EXPORTS.join(', ')} } = http;\n`,
      loader: 'js',
    }));
  },
};

/**
 * Packages the bundle leaves out and loads from node_modules beside it (copied there from this checkout, at the lock
 * file's versions: function-packages.ts). puppeteer-core breaks when bundled. The others are data read from their
 * package folder on first use (the oEmbed registry, Prism's languages and themes), which a bundle cannot carry;
 * there, they also stay out of what every cold start loads. Lighthouse reads its audits, locales and report
 * renderer from its package folder, and autoconsent its content script and rules (lib/browser/consent.ts). sharp
 * is a native addon: its JavaScript is copied like the others, its linux-x64 binaries installed (sharp.ts).
 */
export const SHIPPED_PACKAGES = [
  'puppeteer-core',
  'oembed-providers',
  'prismjs',
  'prism-themes',
  'automad-prism-themes',
  'lighthouse',
  '@duckduckgo/autoconsent',
  SHARP_PACKAGE,
] as const;

/** Files the function reads beside its chunks: the technology rules, where lib/insights/rules.ts looks for them. */
export const FUNCTION_FILES = [{ from: 'lib/insights/webappanalyzer', to: 'functions/webappanalyzer' }];

export const FUNCTION_BUNDLING = {
  format: 'esm',
  minify: true,
  // None: the function runs without --enable-source-maps (it costs ~120 ms of every cold start, bench/RESULTS.md,
  // coldstart), and a logged stack names Glance's functions as written (SST bundles with keepNames). To map a
  // position in a chunk back to TypeScript, build the same commit with maps (bench/lib/bundle.ts, `sourcemap`):
  // esbuild's output is the same for the same input.
  sourcemap: false,
  // Every dynamic import() becomes a chunk of its own, loaded on first use: a cold start compiles only what the
  // metadata path imports (the entry and its shared chunks), not the browser, the adblocker, the S3/SSM/Lambda
  // clients, the rules or the insights (bench/RESULTS.md, "Cold start (issues 9 and 16)").
  splitting: true,
  // Nothing for SST to `npm install`: it would install the package.json ranges, not the lock file's versions.
  // Chromium comes from the layer (lib/browser/launch.ts imports it from /opt). The adblock lists are not needed:
  // the engine ships prebuilt (stacks/Glance.ts).
  esbuild: {
    // The worker threads' own script (lib/work/pool.ts starts it from beside the chunk that holds the pool) is a second
    // entry: with splitting, the code it shares with the handler (the rules, htmlparser2) is in shared chunks, once.
    // SST passes its own entry (the handler) first and these options over it, so the handler is listed here too.
    entryPoints: { api: 'functions/api.ts', 'work-worker': 'lib/work/worker.ts' },
    external: [CHROMIUM_PACKAGE, ...SHIPPED_PACKAGES],
    plugins: [nodeHttpWithoutFacade],
  },
} satisfies NodeJSProps;
